import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { AccessModule } from '@dam/access';
import { AccessLevelsModule } from '@dam/access-levels';
import { AssetContentModule } from '@dam/asset-content';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { CategoriesModule } from '@dam/categories';
import { CheckoutModule } from '@dam/checkout';
import { LightboxesModule } from '@dam/lightboxes';
import { MaintenanceModule } from '@dam/maintenance';
import { AppConfig, AppValidationPipe, ErrorFilter, PlatformModule, XmlInterceptor } from '@dam/platform';
import { PublishingModule } from '@dam/publishing';
import { SearchModule } from '@dam/search';
import { SignedUrlsModule } from '@dam/signed-urls';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';
import { HealthController } from './health/health.controller';
import { OAuthController } from './oauth/oauth.controller';
import { RootController } from './root/root.controller';

/**
 * The whole API. Global pipe, filter, guard and interceptor (XML negotiation) are APP_* providers so tests
 * built from here behave alike.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config),
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
        SignedUrlsModule,
        MaintenanceModule,
      ],
      controllers: [RootController, HealthController, OAuthController],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        {
          provide: APP_PIPE,
          useValue: new AppValidationPipe(),
        },
        { provide: APP_INTERCEPTOR, useClass: XmlInterceptor },
      ],
    };
  }
}
