import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { CacheGenerationsModule } from '@dam/database';
import { RootLinks } from '@dam/http';
import { StoredObjectOwners } from '@dam/storage';
import { AccessLevelPortsModule } from './access-level-ports.module';
import { AccessLevelSearchController } from './access-level-search.controller';
import { AccessLevelMapper } from './access-level.mapper';
import { AccessLevelReader } from './access-level.reader';
import { AccessLevelsController } from './access-levels.controller';
import { AccessLevelsRepository } from './access-levels.repository';
import { AccessLevelsService } from './access-levels.service';
import { AccessLevelEntity } from './entities/access-level.entity';
import { AccessLevelImagesController } from './images/access-level-images.controller';
import { AccessLevelImagesService } from './images/access-level-images.service';

/** Access levels (spec 4.1): the tree, its texts per language, images, search with counts. */
@Module({
  imports: [
    TypeOrmModule.forFeature([AccessLevelEntity]),
    CacheGenerationsModule,
    AccessModule,
    AccessLevelPortsModule,
  ],
  controllers: [AccessLevelsController, AccessLevelSearchController, AccessLevelImagesController],
  providers: [
    AccessLevelsRepository,
    AccessLevelReader,
    AccessLevelsService,
    AccessLevelMapper,
    AccessLevelImagesService,
  ],
  exports: [AccessLevelsService, AccessLevelMapper],
})
export class AccessLevelsModule implements OnModuleInit {
  constructor(
    private readonly rootLinks: RootLinks,
    private readonly owners: StoredObjectOwners,
    private readonly levels: AccessLevelsRepository,
  ) {}

  onModuleInit(): void {
    this.rootLinks.register('accessLevelsUrl', 'access-levels');
    this.rootLinks.register('accessLevelSearchUrl', 'access-level-search');
    // The orphan sweep asks which `access-level-images/` objects a level still refers to.
    const levels = this.levels;
    this.owners.register(
      'access-level-images/',
      (keys) => levels.referencedImageKeys(keys),
      async function* () {
        yield* await levels.imageKeys();
      },
    );
  }
}
