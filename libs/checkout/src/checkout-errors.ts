import { StateConflict } from '@dam/errors';

export const CHECKED_OUT_TO_ANOTHER_USER = 'the asset is checked out to another user';

/** 409: the asset is checked out to someone else, so the actor may not change it or its checkout. */
export class AssetCheckedOut extends StateConflict {
  constructor() {
    super(CHECKED_OUT_TO_ANOTHER_USER);
  }
}
