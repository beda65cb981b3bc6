import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { ReadReplica } from './database/read-replica';
import { DomainEvents } from './events/domain-events';
import { BodyParserMiddleware } from './http/body-parser.middleware';
import { RequestContextMiddleware } from './http/request-context.middleware';
import { RootLinks } from './http/root-links';
import { UrlService } from './http/url.service';
import { I18nModule } from './i18n/i18n.module';
import { Settings } from './settings/settings';
import { JobsModule } from './jobs/jobs.module';
import { RateCounters } from './rate-limits/rate-counters';
import { StorageModule } from './storage/storage.module';

/** Cross-cutting services every area uses: configuration, database, URLs, storage. */
@Global()
@Module({})
export class PlatformModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        StorageModule,
        I18nModule,
        JobsModule,
        // Domain events in process (docs/events.md): `asset.created`, and `asset.*` for a whole area.
        EventEmitterModule.forRoot({ wildcard: true, delimiter: '.' }),
      ],
      providers: [UrlService, RootLinks, Settings, DomainEvents, ReadReplica, RateCounters],
      exports: [UrlService, RootLinks, Settings, StorageModule, DomainEvents, ReadReplica, RateCounters],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware, BodyParserMiddleware).forRoutes('*path');
  }
}
