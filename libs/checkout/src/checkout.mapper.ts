import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { CheckoutState } from './checkout.service';

/** Spec 2.11: the holder's id as a string, "0" when checked in. */
export interface CheckoutStatusRepresentation {
  userId: string;
}

/** An item of `GET /rest/checkout` (not shown by the spec; see docs/api-decisions.md). */
export interface CheckoutListItem {
  assetId: number;
  userId: string;
  assetUrl: string;
  checkoutUrl: string;
}

/** XML (DESIGN §3): `<checkout>` (a status, or an item of the list `<checkouts>`). */
export const CHECKOUT_XML = xmlMapping('checkout');

@Injectable()
export class CheckoutMapper {
  constructor(private readonly urls: UrlService) {}

  /** The checkout resource of the base collection, `/rest/checkout/{assetId}`. */
  url(assetId: number): string {
    return this.urls.rest('checkout', assetId);
  }

  toStatus(state: CheckoutState): CheckoutStatusRepresentation {
    return { userId: String(state.holderId) };
  }

  toListItem(state: CheckoutState): CheckoutListItem {
    return {
      assetId: state.assetId,
      userId: String(state.holderId),
      assetUrl: this.urls.rest('assets', state.assetId),
      checkoutUrl: this.urls.rest('assets', state.assetId, 'checkout'),
    };
  }
}
