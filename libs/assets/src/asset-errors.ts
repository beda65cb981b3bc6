import { UnknownResource } from '@dam/errors';

/** An asset that does not exist, or that the actor may not see (DESIGN §5: for them it does not exist). */
export class AssetNotFound extends UnknownResource {
  constructor(id: number) {
    super(`asset ${id} does not exist`);
  }
}
