import { Module, OnModuleInit } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { RootLinks } from '@dam/http';
import { AssetEditLocksModule, CheckoutStoreModule } from './checkout-locks.module';
import { CheckoutController } from './checkout.controller';
import { CheckoutMapper } from './checkout.mapper';
import { CheckoutService } from './checkout.service';

/** Checking assets out and in (spec 4.6); binds the assets port AssetEditLocks (checked-out assets are locked). */
@Module({
  imports: [CheckoutStoreModule, AssetEditLocksModule, AccessModule, AssetsModule],
  controllers: [CheckoutController],
  providers: [CheckoutService, CheckoutMapper],
})
export class CheckoutModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('checkoutUrl', 'checkout');
  }
}
