import { CanActivate, ExecutionContext, Injectable, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import {
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModule,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '@dam/core';
import { TooManyRequests } from '@dam/errors';
import { RateCounters } from './rate-counters';

/**
 * @nestjs/throttler's storage on the shared `rate_limit_counters` (RateCounters): fixed windows of `ttl`
 * ms; past `limit` hits a key is refused until its window ends (blockDuration is the window's rest).
 */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

export class DatabaseThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counters: RateCounters) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const window = await this.counters.hit(`throttle:${throttlerName}:${key}`.slice(0, 100), ttl);
    const seconds = Math.max(1, Math.ceil((window.endsAt - Date.now()) / 1000));
    const isBlocked = window.hits > limit;
    return {
      totalHits: window.hits,
      timeToExpire: seconds,
      isBlocked,
      timeToBlockExpire: isBlocked ? seconds : 0,
    };
  }
}

/** The limit of the throttler while DAM_RATE_LIMIT_PER_MINUTE is unset. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The bearer token of a request, if it presents one. */
function bearerOf(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match === null ? undefined : match[1];
}

/**
 * DAM_RATE_LIMIT_PER_MINUTE requests per access token and minute, across instances; the next answers 429
 * with `Retry-After` (plain text, through the error filter). Requests without a bearer token are not
 * counted. Asked only while the variable is set (`TokenRateLimits`).
 */
@Injectable()
export class TokenRateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new TooManyRequests(
      `more than ${detail.limit} requests a minute with this access token; try again in ${detail.timeToBlockExpire} s`,
      detail.timeToBlockExpire,
    );
  }
}

/**
 * The global guard: while DAM_RATE_LIMIT_PER_MINUTE is unset, every request passes at once with a plain
 * `true` (no reflector lookups, no async steps: Nest's guards consumer awaits anything but a boolean,
 * two more promises and microtask turns per request); else the throttler decides.
 */
@Injectable()
export class TokenRateLimits implements CanActivate {
  private readonly limited: boolean;

  constructor(
    config: AppConfig,
    private readonly throttler: TokenRateLimitGuard,
  ) {
    this.limited = config.rateLimitPerMinute !== undefined;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return this.limited ? this.throttler.canActivate(context) : true;
  }
}

export function tokenThrottlerOptions(config: AppConfig, counters: RateCounters): ThrottlerModuleOptions {
  const limit = config.rateLimitPerMinute;
  return {
    throttlers: [{ name: 'default', ttl: 60_000, limit: limit ?? UNLIMITED }],
    storage: new DatabaseThrottlerStorage(counters),
    skipIf: (context) =>
      limit === undefined ||
      context.getType() !== 'http' ||
      bearerOf(context.switchToHttp().getRequest<IncomingMessage>()) === undefined,
    // One counter per token (its hash), whatever the route.
    getTracker: (request) =>
      createHash('sha256')
        .update(bearerOf(request as IncomingMessage) ?? '')
        .digest('hex'),
    generateKey: (_context, tracker) => `token:${tracker}`,
  };
}

/** The per-token limit, as a global guard (off unless DAM_RATE_LIMIT_PER_MINUTE is set). */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RateCounters],
      useFactory: tokenThrottlerOptions,
    }),
  ],
  providers: [TokenRateLimitGuard, { provide: APP_GUARD, useClass: TokenRateLimits }],
})
export class RateLimitsModule {}
