import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AssetEditLocks } from '@dam/assets';
import { CheckoutLocks } from './checkout-locks';
import { CheckoutRepository } from './checkout.repository';
import { AssetCheckoutEntity } from './entities/asset-checkout.entity';

/** The checkout table and its lock rule, shared by the checkout module and the port binding below. */
@Module({
  imports: [TypeOrmModule.forFeature([AssetCheckoutEntity])],
  providers: [CheckoutRepository, CheckoutLocks],
  exports: [CheckoutRepository, CheckoutLocks],
})
export class CheckoutStoreModule {}

/**
 * Binds the assets port AssetEditLocks to the checkout rule for every module (the assets area, on a
 * lower floor, injects the port without knowing checkouts). Imported by CheckoutModule.
 */
@Global()
@Module({
  imports: [CheckoutStoreModule],
  providers: [{ provide: AssetEditLocks, useExisting: CheckoutLocks }],
  exports: [AssetEditLocks],
})
export class AssetEditLocksModule {}
