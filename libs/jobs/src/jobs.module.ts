import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { JobRunner } from './job-runner';
import { JobRunsStore } from './job-runs.store';
import { LeaseService } from './lease.service';
import { JobRegistry } from './maintenance-job';

/**
 * Maintenance jobs: the registry of every job (found among the providers), the runner that schedules and records
 * them (`job_runs`), and the database leases that keep each job to one instance at a time.
 */
@Global()
@Module({
  imports: [DiscoveryModule, ScheduleModule.forRoot()],
  providers: [LeaseService, JobRegistry, JobRunsStore, JobRunner],
  exports: [LeaseService, JobRegistry, JobRunner],
})
export class JobsModule {}
