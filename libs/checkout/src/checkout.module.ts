import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { RootLinks } from '@dam/platform';
import { CheckoutController } from './checkout.controller';
import { CheckoutMapper } from './checkout.mapper';
import { CheckoutRepository } from './checkout.repository';
import { CheckoutService } from './checkout.service';
import { AssetCheckoutEntity } from './entities/asset-checkout.entity';

/** Checking assets out and in (spec 4.6); exports CheckoutService for the assets area's edit guard. */
@Module({
  imports: [TypeOrmModule.forFeature([AssetCheckoutEntity]), AccessModule],
  controllers: [CheckoutController],
  providers: [CheckoutRepository, CheckoutService, CheckoutMapper],
  exports: [CheckoutService],
})
export class CheckoutModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('checkoutUrl', 'checkout');
  }
}
