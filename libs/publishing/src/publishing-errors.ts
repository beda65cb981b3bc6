import { UnknownResource } from '@dam/errors';

/** 404: no publishing action of that id. */
export class PublishingActionNotFound extends UnknownResource {
  constructor(id: number) {
    super(`publishing action ${id} does not exist`);
  }
}
