import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessLevelTree } from '@dam/access';
import { CacheGenerationsModule } from '@dam/database';
import { AccessLevelTreeService } from './access-level-tree.service';
import { AccessLevelsCache } from './access-levels.cache';
import { AccessLevelEntity } from './entities/access-level.entity';

/**
 * Binds the port access declares and this area implements (AccessLevelTree, for permission inheritance
 * and group validation). Global, so access just injects the abstract class.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AccessLevelEntity]), CacheGenerationsModule],
  providers: [
    AccessLevelsCache,
    AccessLevelTreeService,
    { provide: AccessLevelTree, useExisting: AccessLevelTreeService },
  ],
  exports: [AccessLevelTree, AccessLevelsCache],
})
export class AccessLevelPortsModule {}
