import type { INestApplication } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, Response } from 'express';
import { BodyParserMiddleware } from './body-parser.middleware';
import { ErrorFilter } from './error.filter';
import { RequestContextMiddleware } from './request-context.middleware';

/**
 * Mounts the request context as a plain express middleware, after those createApp mounted before it
 * (security headers, trusted origin, CORS) and before the body parsers and every route. Nest's own
 * middleware mounting (`forRoutes('*path')`) gave it a layer that ran the `/*path` pattern, decoded the
 * path's segments into params and added the request to a WeakSet, on every request, for nothing: it runs
 * for every path. It never fails (no error to route through the error filter).
 */
export function mountRequestContext(app: INestApplication): void {
  const context = app.get(RequestContextMiddleware);
  app.use((request: Request, response: Response, next: NextFunction) => context.use(request, response, next));
}

/**
 * Mounts the body parsers as a plain express middleware, right after the request context (the same
 * reason: Nest's `forRoutes('*path')` layer cost every request a pattern match, params, a WeakSet entry
 * and a promise). A request without a body (most GETs) passes synchronously. What the parsers refuse
 * answers through the error filter, as the global filter answers any other error (a refusal handed to
 * express's `next(error)` would reach Nest's error layer without it: other statuses and texts).
 */
export function mountBodyParsers(app: INestApplication): void {
  const bodies = app.get(BodyParserMiddleware);
  const errors = new ErrorFilter();
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (bodies.passes(request)) {
      next();
      return;
    }
    bodies
      .use(request, response, next)
      .catch((error: unknown) => errors.catch(error, new ExecutionContextHost([request, response, next])));
  });
}
