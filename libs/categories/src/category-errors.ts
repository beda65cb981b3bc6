import { UnknownResource } from '@dam/errors';

/** 404: no category of that id. */
export class CategoryNotFound extends UnknownResource {
  constructor(id: number) {
    super(`category ${id} does not exist`);
  }
}
