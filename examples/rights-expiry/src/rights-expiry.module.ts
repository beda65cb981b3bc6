import { DynamicModule, Module } from '@nestjs/common';
import { AssetsModule } from '@dam/assets';
import { DomainEvents } from '@dam/events';
import { UrlService } from '@dam/http';
import { ExpireRightsJob } from './expire-rights.job';
import { RightsExpiryController } from './rights-expiry.controller';
import { RightsExpiryListener } from './rights-expiry.listener';
import { RightsExpiryMigrations } from './rights-expiry.migrations';
import { RIGHTS_EXPIRY_OPTIONS, RightsExpiryOptions } from './rights-expiry.options';
import { RightsRepository } from './rights.repository';

/**
 * Rights expiry, the worked extension of docs/extending.md: its own table (and migrations), a listener of
 * `asset.*` events, the scheduled job `expire-rights` (which records `rights.expired` events that webhooks
 * deliver) and the admin endpoint `/rest/admin/rights-expiry`. It edits no other lib: it uses their
 * barrels (`@dam/events`, `@dam/jobs`, `@dam/http`, `@dam/access`, `@dam/assets`, ...) and is added to the app as
 * `createApp(config, levels, [RightsExpiryModule.forRoot({...})])`.
 */
@Module({})
export class RightsExpiryModule {
  static forRoot(options: Partial<RightsExpiryOptions> = {}): DynamicModule {
    const settings: RightsExpiryOptions = { defaultTermDays: 365, cron: '0 * * * *', ...options };
    return {
      module: RightsExpiryModule,
      imports: [AssetsModule],
      controllers: [RightsExpiryController],
      providers: [
        { provide: RIGHTS_EXPIRY_OPTIONS, useValue: settings },
        RightsExpiryMigrations,
        RightsRepository,
        RightsExpiryListener,
        {
          provide: ExpireRightsJob,
          inject: [RightsRepository, DomainEvents, UrlService],
          useFactory: (rights: RightsRepository, events: DomainEvents, urls: UrlService) =>
            new ExpireRightsJob(rights, events, urls, settings.cron),
        },
      ],
    };
  }
}
