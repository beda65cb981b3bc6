/**
 * Typed domain errors, named by what went wrong. Services throw these (or an area's own subclass, such
 * as `AssetCheckedOut` or `AccessLevelNotAssignable`); one filter (error.filter.ts) maps `kind` to a
 * status and the message to a text/plain body. Messages are shown to clients verbatim, so they must
 * never carry secrets or SQL.
 */
export type ErrorKind =
  | 'invalid-input'
  | 'not-authenticated'
  | 'not-permitted'
  | 'unknown-resource'
  | 'state-conflict'
  | 'too-large'
  | 'unsupported-content'
  | 'not-acceptable'
  | 'precondition-failed'
  | 'too-many-requests'
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

export class InvalidInput extends DomainError {
  constructor(message: string) {
    super('invalid-input', message);
  }
}

export class NotAuthenticated extends DomainError {
  constructor(message = 'a valid access token is required') {
    super('not-authenticated', message);
  }
}

export class NotPermitted extends DomainError {
  constructor(message = 'you are not permitted to do this') {
    super('not-permitted', message);
  }
}

export class UnknownResource extends DomainError {
  constructor(message: string) {
    super('unknown-resource', message);
  }
}

export class StateConflict extends DomainError {
  constructor(message: string) {
    super('state-conflict', message);
  }
}

export class TooLarge extends DomainError {
  constructor(message: string) {
    super('too-large', message);
  }
}

export class UnsupportedContent extends DomainError {
  constructor(message: string) {
    super('unsupported-content', message);
  }
}

/** 406: the `Accept` header allows none of the representations the resource has. */
export class NotAcceptable extends DomainError {
  constructor(message: string) {
    super('not-acceptable', message);
  }
}

/** 429: a rate limit (failed logins, requests per token); the answer carries `Retry-After`. */
export class TooManyRequests extends DomainError {
  constructor(
    message: string,
    /** Whole seconds until the limit lets the client through again. */
    readonly retryAfterSeconds: number,
  ) {
    super('too-many-requests', message);
  }
}

/** 412: an `If-Match` naming a version of the resource that is no longer current. */
export class PreconditionFailed extends DomainError {
  constructor(message: string) {
    super('precondition-failed', message);
  }
}

export class DependencyUnavailable extends DomainError {
  constructor(message = 'the service is temporarily unavailable, try again shortly') {
    super('unavailable', message);
  }
}
