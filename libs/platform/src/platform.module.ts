import { DynamicModule, Global, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AppConfig, ConfigModule } from '@dam/core';
import { DatabaseModule, ReadReplica, Settings } from '@dam/database';
import { DomainEvents } from '@dam/events';
import {
  BodyParserMiddleware,
  heapReleaseProvider,
  RequestContextMiddleware,
  RootLinks,
  UrlService,
} from '@dam/http';
import { I18nModule } from '@dam/i18n';
import { JobsModule } from '@dam/jobs';
import { MIGRATIONS } from '@dam/migrations';
import { RateCounters } from '@dam/rate-limits';
import { StorageModule } from '@dam/storage';

/**
 * Cross-cutting services every area uses: configuration, database, URLs, storage. The wiring of the
 * platform's rooms for the apps; it also hands the database the schema's history (the migrations,
 * which fill new tables through their owners), which is why it sits above every lib.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot(config),
        // The schema's history, run at boot.
        DatabaseModule.forRoot(MIGRATIONS),
        StorageModule,
        I18nModule,
        JobsModule,
        // Domain events in process (docs/events.md): `asset.created`, and `asset.*` for a whole area.
        EventEmitterModule.forRoot({ wildcard: true, delimiter: '.' }),
      ],
      // The request context and the body parsers are mounted by createApp (mountRequestContext,
      // mountBodyParsers), as express middleware.
      providers: [
        UrlService,
        RootLinks,
        Settings,
        DomainEvents,
        ReadReplica,
        RateCounters,
        RequestContextMiddleware,
        BodyParserMiddleware,
        heapReleaseProvider,
      ],
      exports: [UrlService, RootLinks, Settings, StorageModule, DomainEvents, ReadReplica, RateCounters],
    };
  }
}
