import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { JsonOnly, Public } from '@dam/http';
import { StorageHealthIndicator } from '@dam/storage';

/** How long readiness waits for each dependency. */
const READY_TIMEOUT_MS = 1000;

/**
 * Probes for orchestrators and load balancers, all public and JSON (terminus' report, so an operator sees
 * which dependency is down; the global filter would turn a 503 into a bare text message):
 * - `GET /health/live`: the process answers; it asks no dependency (restart the process when it fails);
 * - `GET /health/ready`: the database and the object store each answer within 1 s, else 503 naming the
 *   one that did not (take the instance out of the rotation, do not restart it);
 * - `GET /health`: the same checks with 3 s each, as before the split.
 */
@ApiTags('health')
@Public()
@JsonOnly()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly storage: StorageHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  async check(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.report(response, 3000);
  }

  @Get('live')
  @HealthCheck()
  async live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  async ready(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.report(response, READY_TIMEOUT_MS);
  }

  /** Both dependencies, side by side, each within `timeoutMs`; 503 with `Retry-After` when one is down. */
  private async report(response: Response, timeoutMs: number): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: timeoutMs }),
        () => this.storage.pingCheck('storage', timeoutMs),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503).setHeader('Retry-After', '5');
      return error.getResponse() as HealthCheckResult;
    }
  }
}
