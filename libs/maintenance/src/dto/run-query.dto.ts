import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** `POST /rest/admin/jobs/{name}/runs?dryRun=true|false` (default false; read by parseBoolean). */
export class RunJobQuery {
  @ApiPropertyOptional({ description: 'examine and report only, change nothing', type: Boolean })
  @Allow()
  dryRun?: unknown;
}
