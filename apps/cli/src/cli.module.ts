import { DynamicModule, Module } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AppConfig, PlatformModule } from '@dam/platform';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';

/** What the admin commands need: configuration, the database (migrated at boot), users/OAuth and temp files. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [PlatformModule.forRoot(config), AccessModule, TempChunkedFilesModule],
    };
  }
}
