import { UnknownResource } from '@dam/errors';

/** 404: no group of that id. */
export class GroupNotFound extends UnknownResource {
  constructor(id: number) {
    super(`group ${id} does not exist`);
  }
}
