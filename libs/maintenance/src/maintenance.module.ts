import { Module } from '@nestjs/common';
import { JobMapper } from './job.mapper';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

/**
 * The admin API of maintenance jobs (`/rest/admin/jobs`, DESIGN §10). The jobs themselves live in the
 * libs that own what they maintain and register with platform's JobRegistry; platform's JobRunner
 * schedules, runs and records them.
 */
@Module({
  controllers: [JobsController],
  providers: [JobsService, JobMapper],
  exports: [JobsService, JobMapper],
})
export class MaintenanceModule {}
