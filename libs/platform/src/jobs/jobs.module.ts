import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { LeaseService } from './lease.service';

/** Scheduling plus database leases, so each scheduled job runs on one instance at a time. */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [LeaseService],
  exports: [LeaseService],
})
export class JobsModule {}
