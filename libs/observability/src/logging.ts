import type { LoggerService, LogLevel } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger as PinoNestLogger, Params, PinoLogger } from 'nestjs-pino';
import pino, { DestinationStream, LevelWithSilent, LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Options as PinoHttpOptions } from 'pino-http';
import { AppConfig, RequestContext } from '@dam/core';
import { elapsedMs, requestIdOf, routePatternOf, trafficOf } from './traffic';

/**
 * Where secrets could sit in anything logged with a request or a body. The request line itself names
 * neither headers nor the URL (only the route pattern), so these guard the other logs: an `err` carrying
 * a request, a DTO logged whole. Censored, not removed, so a reader sees that something was there.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  'password',
  'client_secret',
  'clientSecret',
  'refresh_token',
  'access_token',
  'token',
  'secret',
  '*.password',
  '*.client_secret',
  '*.clientSecret',
  '*.refresh_token',
  '*.access_token',
  '*.token',
  '*.secret',
  // Signed URLs: the signature, its expiry and signer (storage's UrlSigner, signed-urls), and S3's.
  'query.key',
  'query.timestamp',
  'query["X-Amz-Signature"]',
  'query["X-Amz-Credential"]',
  'req.query.key',
  'req.query["X-Amz-Signature"]',
];

/** The most detailed pino level that Nest's `LogLevel`s ask for (`false`: nothing at all). */
export function pinoLevelOf(levels: LogLevel[] | false): LevelWithSilent {
  if (levels === false || levels.length === 0) return 'silent';
  const order: Array<[LogLevel, LevelWithSilent]> = [
    ['verbose', 'trace'],
    ['debug', 'debug'],
    ['log', 'info'],
    ['warn', 'warn'],
    ['error', 'error'],
    ['fatal', 'fatal'],
  ];
  return order.find(([nest]) => levels.includes(nest))?.[1] ?? 'info';
}

/**
 * nestjs-pino's parameters: one pino logger for Nest's own logs (bootstrap, errors, jobs) and, through
 * pino-http, one line per request (unless DAM_LOG_REQUESTS=false) with its id, method, route pattern,
 * status, ms, bytes sent and received, actor, OAuth client and remote address. JSON lines on stdout, or
 * pino-pretty's text (DAM_LOG_FORMAT). `destination` replaces stdout (tests).
 *
 * nestjs-pino keeps one pino-http instance per process, built from the first application's parameters:
 * several applications in one process (tests) share the first one's.
 */
export function loggingParams(
  config: AppConfig,
  level: LevelWithSilent,
  destination?: DestinationStream,
): Params {
  const options: LoggerOptions & PinoHttpOptions<IncomingMessage, ServerResponse> = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...(config.logFormat === 'json' ? { formatters: { level: (label: string) => ({ level: label }) } } : {}),
    genReqId: (request, response) => requestIdOf(request, response),
    autoLogging: config.logRequests,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'ms' },
    customLogLevel: (_request, response, error) =>
      error !== undefined || response.statusCode >= 500 ? 'error' : 'info',
    customSuccessMessage: (request, response) => requestMessage(request, response),
    customErrorMessage: (request, response) => requestMessage(request, response),
    customSuccessObject: (request, response) => requestLine(request, response),
    // The error itself was logged (with its stack) by the error filter; the line says how it ended.
    customErrorObject: (request, response) => requestLine(request, response),
  };
  return {
    pinoHttp: [options, destination ?? standardOutput(config)],
    // Mounted like the platform's own middleware (express `use`), not as the catch-all route nestjs-pino's
    // default path makes, which would show up among the app's routes. Not at all without request lines
    // (DAM_LOG_REQUESTS=false): pino-http's child logger per request (with redaction) cost about 15% of
    // a GET's CPU for nothing (bench/results/latest.md).
    forRoutes: config.logRequests ? ['*path'] : [],
  };
}

function standardOutput(config: AppConfig): DestinationStream {
  if (config.logFormat === 'pretty') {
    // Loaded only for the pretty format: JSON processes never pay its memory.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as typeof PinoPretty;
    return pretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l' });
  }
  return pino.destination({ dest: 1, sync: true });
}

function requestMessage(request: IncomingMessage, response: ServerResponse): string {
  return `${request.method} ${routePatternOf(request) ?? pathOf(request)} ${response.statusCode}`;
}

/** The fields of a request's log line (the id is bound to the logger as `requestId`). */
function requestLine(request: IncomingMessage, response: ServerResponse): Record<string, unknown> {
  const context = RequestContext.of(request);
  const traffic = trafficOf(request);
  const route = routePatternOf(request);
  return {
    method: request.method,
    route: route ?? null,
    // Only when no route matched: the path without its query (which may carry a URL signature).
    ...(route === undefined ? { path: pathOf(request) } : {}),
    status: response.writableFinished ? response.statusCode : 'aborted',
    ms: traffic === undefined ? undefined : elapsedMs(traffic),
    bytes: traffic?.sent,
    bytesIn: traffic?.received,
    actorId: context?.actorId ?? null,
    clientId: context?.clientId ?? null,
    remoteAddress: (request as { ip?: string }).ip ?? request.socket.remoteAddress,
  };
}

function pathOf(request: IncomingMessage): string {
  const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '';
  const path = url.split('?')[0];
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** Nest's logger over the same pino logger (the application's `logger` option, before the module exists). */
export function nestLoggerOf(params: Params): LoggerService {
  return new PinoNestLogger(new PinoLogger(params), params);
}
