import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequestContext } from '@dam/core';
import { allowedMethods } from './allowed-methods';
import { DomainError, TooManyRequests, isUnavailableError } from '@dam/errors';
import { statusOf } from './error-status';

interface ErrorReply {
  status: number;
  message: string;
  /** The `Allow` header of a 405. */
  allow?: string;
}

/** Every error leaves as text/plain with a one-line message; nothing internal ever reaches the client. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const reply = this.toReply(error, request);
    reply.message = oneLine(reply.message);

    if (response.headersSent) {
      response.destroy();
      return;
    }
    if (reply.status === 401) {
      const hadToken = typeof request.headers.authorization === 'string';
      response.setHeader('WWW-Authenticate', hadToken ? 'Bearer error="invalid_token"' : 'Bearer');
    }
    if (reply.status === 503) response.setHeader('Retry-After', '5');
    if (reply.allow !== undefined) {
      response.setHeader('Allow', reply.allow);
      // OPTIONS of a known path (no CORS preflight, which the CORS middleware answers): the methods.
      if (request.method === 'OPTIONS') {
        response.status(204).end();
        return;
      }
    }
    if (error instanceof TooManyRequests)
      response.setHeader('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    if (request.originalUrl.startsWith('/oauth/') && reply.status === 400) {
      // The OAuth endpoints speak RFC 6749 5.2 JSON, also for bodies rejected before the handler ran.
      response.status(400).json({ error: 'invalid_request', error_description: reply.message });
      return;
    }
    response.status(reply.status).type('text/plain; charset=utf-8').send(reply.message);
  }

  private toReply(error: unknown, request: Request): ErrorReply {
    if (error instanceof DomainError) return { status: statusOf(error.kind), message: error.message };
    if (error instanceof HttpException) return fromHttpException(error, request);
    const parserReply = fromBodyParserError(error);
    if (parserReply !== undefined) return parserReply;
    if (isUnavailableError(error)) {
      this.logger.warn(`dependency unavailable: ${describe(error)}`);
      return { status: 503, message: 'the service is temporarily unavailable, try again shortly' };
    }
    const requestId = RequestContext.current()?.requestId ?? 'unknown';
    this.logger.error(
      `unexpected error (request ${requestId}): ${describe(error)}`,
      error instanceof Error ? error.stack : undefined,
    );
    return { status: 500, message: `internal error (request ${requestId})` };
  }
}

function fromHttpException(error: HttpException, request: Request): ErrorReply {
  const status = error.getStatus();
  if (status === 404 && error.constructor.name === 'NotFoundException' && /^Cannot /.test(error.message)) {
    // No route took the request: a path that exists for other methods answers 405 with them.
    const allowed = allowedMethods(request);
    if (allowed.length > 0) {
      const allow = allowed.join(', ');
      const message = `${request.method} is not allowed at ${request.path}; allowed: ${allow}`;
      return { status: 405, message, allow };
    }
    return { status, message: `no resource at ${request.method} ${request.path}` };
  }
  const body = error.getResponse();
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (Array.isArray(message)) return { status, message: [...new Set(message.map(String))].join('; ') };
    if (typeof message === 'string') return { status, message };
  }
  return { status, message: typeof body === 'string' ? body : error.message };
}

/** Errors raised by the express body parsers carry `type` and `status`. */
function fromBodyParserError(error: unknown): ErrorReply | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error)) return undefined;
  const { type, limit } = error as { type: unknown; limit?: unknown };
  switch (type) {
    case 'entity.too.large':
      return { status: 413, message: `the request body is larger than the limit of ${String(limit)} bytes` };
    case 'parameters.too.many':
      return { status: 413, message: 'the form request body has too many parameters' };
    case 'entity.parse.failed':
      return { status: 400, message: 'the request body could not be parsed' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, message: 'the request body uses an unsupported encoding or charset' };
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return { status: 400, message: 'the request body was incomplete or malformed' };
    default:
      return undefined;
  }
}

/**
 * Messages often quote what the client sent (a path id, a name, a URL): control characters and line
 * separators are shown escaped, so an answer is always one line and cannot forge more.
 */
export function oneLine(message: string): string {
  return message.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
