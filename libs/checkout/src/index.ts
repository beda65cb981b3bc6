export * from './checkout.module';
export { CHECKED_OUT_TO_ANOTHER_USER, CheckoutService } from './checkout.service';
export type { CheckoutState } from './checkout.service';
