import { ApiProperty } from '@nestjs/swagger';

class JobRunSummarySchema {
  @ApiProperty()
  examined: number;
  @ApiProperty()
  changed: number;
  @ApiProperty()
  reported: number;
  @ApiProperty({ type: [String] })
  details: string[];
}

/** OpenAPI schema of `JobRunRepresentation`. */
export class JobRunSchema {
  @ApiProperty()
  id: number;
  @ApiProperty()
  job: string;
  @ApiProperty({ enum: ['queued', 'running', 'succeeded', 'failed'] })
  status: string;
  @ApiProperty()
  dryRun: boolean;
  @ApiProperty({ enum: ['schedule', 'manual'] })
  trigger: string;
  @ApiProperty({ format: 'date-time' })
  queuedAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  startedAt: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  finishedAt: string | null;
  @ApiProperty({ type: JobRunSummarySchema })
  summary: JobRunSummarySchema;
  @ApiProperty({ type: String, nullable: true })
  error: string | null;
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty({ format: 'uri' })
  jobUrl: string;
}

/** OpenAPI schema of `JobRepresentation`. */
export class JobSchema {
  @ApiProperty()
  name: string;
  @ApiProperty()
  description: string;
  @ApiProperty({ description: 'cron expression' })
  schedule: string;
  @ApiProperty()
  enabled: boolean;
  @ApiProperty({ description: 'whether this instance runs scheduled jobs (DAM_JOBS_ENABLED)' })
  scheduledHere: boolean;
  @ApiProperty()
  running: boolean;
  @ApiProperty({ type: JobRunSchema, nullable: true })
  lastRun: JobRunSchema | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  nextRunAt: string | null;
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty({ format: 'uri' })
  runsUrl: string;
}
