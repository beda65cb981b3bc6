import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AssetCreated, AssetDeleted, AssetEventData } from '@dam/assets';
import { DomainEvent } from '@dam/events';
import { RIGHTS_EXPIRY_OPTIONS, RightsExpiryOptions } from './rights-expiry.options';
import { RightsRepository } from './rights.repository';

/**
 * Listens to the assets area's events (`asset.*`, in process, after their transaction committed): a new
 * asset gets the default term of rights, a deleted one loses its row. In-process events reach the
 * instance that made the change once; the admin endpoint sets rights of any asset, events or not.
 */
@Injectable()
export class RightsExpiryListener {
  constructor(
    private readonly rights: RightsRepository,
    @Inject(RIGHTS_EXPIRY_OPTIONS) private readonly options: RightsExpiryOptions,
  ) {}

  @OnEvent('asset.*', { async: true, promisify: true })
  async onAssetEvent(event: DomainEvent<AssetEventData>): Promise<void> {
    if (event.type === AssetCreated.TYPE) {
      const term = this.options.defaultTermDays;
      const expiresAt = term === null ? null : new Date(event.occurredAt.getTime() + term * 86_400_000);
      await this.rights.start(event.data.assetId, expiresAt);
    } else if (event.type === AssetDeleted.TYPE) {
      await this.rights.forget(event.data.assetId);
    }
  }
}
