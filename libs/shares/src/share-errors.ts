import { NotAuthenticated, UnknownResource } from '@dam/errors';

/** 404 on a share's public URLs: unknown, revoked, expired or out of downloads, never told apart. */
export class ShareUnavailable extends UnknownResource {
  constructor() {
    super('this share does not exist or is no longer available');
  }
}

/** 404 on `/rest/shares/{id}`: not there, or another user's (for anyone but an admin). */
export class ShareNotFound extends UnknownResource {
  constructor(id: number) {
    super(`share ${id} does not exist`);
  }
}

/** 401: the share has a password, and `X-Share-Password` is missing or wrong. */
export class SharePasswordRequired extends NotAuthenticated {
  constructor(given: boolean) {
    super(given ? 'the share password is wrong' : 'this share needs its password in X-Share-Password');
  }
}
