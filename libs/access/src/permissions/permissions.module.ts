import { Module } from '@nestjs/common';
import { CacheGenerationsModule } from '@dam/database';
import { PermissionsRepository } from './permissions.repository';
import { PermissionsService } from './permissions.service';

/**
 * Grants per access level (DESIGN §5). The level tree comes from the AccessLevelTree port, bound
 * globally by the access-levels area, so a context importing this needs that area too.
 */
@Module({
  imports: [CacheGenerationsModule],
  providers: [PermissionsRepository, PermissionsService],
  exports: [PermissionsService],
})
export class PermissionsModule {}
