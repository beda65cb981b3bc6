import { UnknownResource } from '@dam/errors';

/** 404: no access level of that id. */
export class AccessLevelNotFound extends UnknownResource {
  constructor(id: number) {
    super(`access level ${id} does not exist`);
  }
}
