import { ErrorKind } from './domain-errors';

export function statusOf(kind: ErrorKind): number {
  switch (kind) {
    case 'bad-request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not-found':
      return 404;
    case 'conflict':
      return 409;
    case 'too-large':
      return 413;
    case 'unsupported-media-type':
      return 415;
    case 'unavailable':
      return 503;
  }
}
