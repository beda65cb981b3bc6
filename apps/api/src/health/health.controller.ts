import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { JsonOnly, Public } from '@dam/platform';
import { StorageHealthIndicator } from '@dam/platform';

/**
 * Liveness and readiness for load balancers: 200 when the database and the object store answer, 503
 * otherwise. Both answers carry terminus' JSON report, so an operator sees which dependency is down (the
 * global filter would turn the 503 into a bare text message).
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
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 3000 }),
        () => this.storage.pingCheck('storage', 3000),
      ]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503).setHeader('Retry-After', '5');
      return error.getResponse() as HealthCheckResult;
    }
  }
}
