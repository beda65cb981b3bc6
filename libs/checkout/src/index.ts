export * from './checkout.module';
export * from './checkout-errors';
export { CheckoutService } from './checkout.service';
export type { CheckoutState } from './checkout.service';
export { CHECKOUT_XML } from './checkout.mapper';
export * from './events/checkout-events';
