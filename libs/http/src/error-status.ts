import { ErrorKind } from '@dam/errors';

export function statusOf(kind: ErrorKind): number {
  switch (kind) {
    case 'invalid-input':
      return 400;
    case 'not-authenticated':
      return 401;
    case 'not-permitted':
      return 403;
    case 'unknown-resource':
      return 404;
    case 'state-conflict':
      return 409;
    case 'too-large':
      return 413;
    case 'not-acceptable':
      return 406;
    case 'unsupported-content':
      return 415;
    case 'precondition-failed':
      return 412;
    case 'too-many-requests':
      return 429;
    case 'unavailable':
      return 503;
  }
}
