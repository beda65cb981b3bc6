import { Module } from '@nestjs/common';
import { WebhookTargets } from './target-guard';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookMapper } from './webhook.mapper';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Outbound webhooks (README "Webhooks"): the admin API at `/rest/admin/webhooks`, and the dispatcher
 * that delivers platform's outbox of domain events to them (signed, retried, one delivery per event and
 * webhook across instances). Depends on platform and access only: it knows events by name.
 */
@Module({
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhooksRepository,
    WebhookMapper,
    WebhookTargets,
    WebhookSender,
    WebhookDispatcher,
  ],
  exports: [WebhooksService, WebhookDispatcher],
})
export class WebhooksModule {}
