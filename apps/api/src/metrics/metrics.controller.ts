import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '@dam/core';
import { NotAuthenticated } from '@dam/errors';
import { JsonOnly, Public } from '@dam/http';
import { Metrics } from '@dam/observability';

/**
 * `GET /metrics`: Prometheus' text format for scrapers (not under /rest: no user token applies). Public
 * unless DAM_METRICS_TOKEN is set; then it needs that token as a bearer token (compared in constant time).
 */
@ApiTags('operations')
@Public()
@JsonOnly()
@Controller('metrics')
export class MetricsController {
  private readonly tokenDigest: Buffer | undefined;

  constructor(
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.tokenDigest = config.metricsToken === undefined ? undefined : digest(config.metricsToken);
  }

  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics of this instance',
    description: 'Public, unless DAM_METRICS_TOKEN is set: then `Authorization: Bearer <that token>`.',
  })
  @ApiProduces('text/plain')
  @ApiResponse({
    status: 200,
    description: 'Prometheus text exposition format 0.0.4',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    this.authorize(authorization);
    const { contentType, text } = await this.metrics.exposition();
    response.status(200).setHeader('Content-Type', contentType);
    response.setHeader('Cache-Control', 'no-store');
    response.end(text);
  }

  private authorize(authorization: string | undefined): void {
    if (this.tokenDigest === undefined) return;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    // Digests of equal length, so the comparison's time says nothing about the token.
    if (presented === undefined || !timingSafeEqual(digest(presented), this.tokenDigest)) {
      throw new NotAuthenticated('the metrics token is missing or wrong (Authorization: Bearer <token>)');
    }
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
