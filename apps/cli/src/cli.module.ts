import { DynamicModule, Module } from '@nestjs/common';
import { IdentityModule } from '@dam/access';
import { AuditRecordingModule } from '@dam/audit';
import { AppConfig } from '@dam/core';
import { PlatformModule } from '@dam/platform';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';

/**
 * What the admin commands need: configuration, the database (migrated at boot), users/OAuth, temp
 * files, and the audit log's recorder (their changes write entries, actor null). Identity only, not the whole access area: permissions need the access level tree, which would
 * pull in every area that binds a port.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [PlatformModule.forRoot(config), IdentityModule, TempChunkedFilesModule, AuditRecordingModule],
    };
  }
}
