import { UnknownResource } from '@dam/errors';

/** 404: no such tus upload, or not the actor's (ids never leak). */
export class TusUploadNotFound extends UnknownResource {
  constructor(id: string) {
    super(`tus upload ${id.slice(0, 40)} does not exist`);
  }
}
