import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { Params } from 'nestjs-pino';
import { AccessModule, AuthGuard } from '@dam/access';
import { AccessLevelsModule } from '@dam/access-levels';
import { AssetContentModule } from '@dam/asset-content';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { CategoriesModule } from '@dam/categories';
import { CheckoutModule } from '@dam/checkout';
import { LightboxesModule } from '@dam/lightboxes';
import { MaintenanceModule } from '@dam/maintenance';
import { AppConfig } from '@dam/core';
import { AppValidationPipe, ErrorFilter, XmlNegotiationGuard } from '@dam/http';
import { ObservabilityModule } from '@dam/observability';
import { PlatformModule } from '@dam/platform';
import { RateLimitsModule } from '@dam/rate-limits';
import { PublishingModule } from '@dam/publishing';
import { SearchModule } from '@dam/search';
import { SharesModule } from '@dam/shares';
import { SignedUrlsModule } from '@dam/signed-urls';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';
import { TusModule } from '@dam/tus';
import { WebhooksModule } from '@dam/webhooks';
import { AuditModule } from '@dam/audit';
import { HealthController } from './health/health.controller';
import { MetricsController } from './metrics/metrics.controller';
import { OAuthController } from './oauth/oauth.controller';
import { RootController } from './root/root.controller';

/**
 * The whole API. Global guards (authentication, then XML negotiation), pipe and filter are APP_*
 * providers so tests built from here behave alike; the negotiated body is written by
 * `NegotiatingExpressAdapter` (create-app.ts).
 */
@Module({})
export class AppModule {
  /** `logging`: nestjs-pino's parameters (createApp); without them (the CLI) nothing logs requests. */
  static forRoot(
    config: AppConfig,
    logging?: Params,
    extraModules: Array<Type | DynamicModule> = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config),
        ObservabilityModule.forRoot(logging),
        RateLimitsModule,
        TerminusModule.forRoot({ logger: false }),
        AccessModule,
        AccessLevelsModule,
        AttributesModule,
        CategoriesModule,
        AssetsModule,
        AssetContentModule,
        CheckoutModule,
        LightboxesModule,
        SearchModule,
        PublishingModule,
        TempChunkedFilesModule,
        TusModule,
        SignedUrlsModule,
        MaintenanceModule,
        WebhooksModule,
        AuditModule,
        SharesModule,
        ...extraModules,
      ],
      controllers: [RootController, HealthController, MetricsController, OAuthController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        {
          provide: APP_PIPE,
          useValue: new AppValidationPipe(),
        },
        // Guards run in this order: who is asking (401), then whether the body can be read (415) and
        // an acceptable representation exists (406), before any handler or pipe.
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useClass: XmlNegotiationGuard },
      ],
    };
  }
}
