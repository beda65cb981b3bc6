import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RootLinks } from '@dam/http';
import { StoredObjectOwners } from '@dam/storage';
import { TempChunkEntity } from './entities/temp-chunk.entity';
import { TempChunkedFileEntity } from './entities/temp-chunked-file.entity';
import { TempChunkedFileMapper } from './temp-chunked-file.mapper';
import { TempChunkedFilesController } from './temp-chunked-files.controller';
import { TempChunkedFilesRepository } from './temp-chunked-files.repository';
import { TempChunkedFilesService } from './temp-chunked-files.service';
import { TempFilePurgeJob } from './temp-file-purge.job';

/** Temp chunked files (uploads in numbered chunks) and their scheduled purge. */
@Module({
  imports: [TypeOrmModule.forFeature([TempChunkedFileEntity, TempChunkEntity])],
  controllers: [TempChunkedFilesController],
  providers: [TempChunkedFilesRepository, TempChunkedFilesService, TempChunkedFileMapper, TempFilePurgeJob],
  exports: [TempChunkedFilesService, TempChunkedFileMapper],
})
export class TempChunkedFilesModule implements OnModuleInit {
  constructor(
    private readonly rootLinks: RootLinks,
    private readonly owners: StoredObjectOwners,
    private readonly chunks: TempChunkedFilesRepository,
  ) {}

  onModuleInit(): void {
    this.rootLinks.register('tempChunkedFilesUrl', 'temp-chunked-files');
    // The orphan sweep asks which `temp/` objects a chunk row still refers to.
    this.owners.register(
      'temp/',
      (keys) => this.chunks.referencedKeys(keys),
      () => this.chunks.chunkKeys(),
    );
  }
}
