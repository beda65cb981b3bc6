import { ActorRef, EventType } from '@dam/events';

/** The payload of `rights.expired` (docs/events.md). */
export interface RightsExpiredData extends ActorRef {
  assetId: number;
  assetUrl: string;
  expiredAt: string;
}

/** An asset's usage rights ran out (the `expire-rights` job). Delivered by webhooks like any event. */
export class RightsExpired extends EventType<RightsExpiredData>('rights.expired') {}
