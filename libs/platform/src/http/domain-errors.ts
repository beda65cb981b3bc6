/**
 * Typed domain errors. Services throw these; one filter maps `kind` to a status and the message to a
 * text/plain body. Messages are shown to clients verbatim, so they must never carry secrets or SQL.
 */
export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'unsupported-media-type'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends DomainError {
  constructor(message: string) {
    super('bad-request', message);
  }
}

export class Unauthorized extends DomainError {
  constructor(message = 'a valid access token is required') {
    super('unauthorized', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'you are not permitted to do this') {
    super('forbidden', message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

export class Conflict extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super('too-large', message);
  }
}

export class UnsupportedMediaType extends DomainError {
  constructor(message: string) {
    super('unsupported-media-type', message);
  }
}

export class ServiceUnavailable extends DomainError {
  constructor(message = 'the service is temporarily unavailable, try again shortly') {
    super('unavailable', message);
  }
}
