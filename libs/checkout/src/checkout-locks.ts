import { Injectable } from '@nestjs/common';
import { ActorUser, isPrivileged } from '@dam/access';
import { AssetEditLocks } from '@dam/assets';
import { AssetCheckedOut } from './checkout-errors';
import { CheckoutRepository } from './checkout.repository';

/**
 * The checkout side of the assets port: before edits and content uploads, an asset checked out to
 * someone other than the actor is locked (409), unless the actor is an admin or the application user.
 */
@Injectable()
export class CheckoutLocks implements AssetEditLocks {
  constructor(private readonly checkouts: CheckoutRepository) {}

  async assertEditableBy(actor: ActorUser, assetId: number): Promise<void> {
    if (isPrivileged(actor)) return;
    const holderId = await this.checkouts.holderOf(assetId);
    if (holderId !== null && holderId !== actor.id) throw new AssetCheckedOut();
  }
}
