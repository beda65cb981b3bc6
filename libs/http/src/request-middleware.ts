import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { BodyParserMiddleware } from './body-parser.middleware';
import { RequestContextMiddleware } from './request-context.middleware';

/**
 * Mounts the request context and the body parsers as two plain express middlewares, after those createApp
 * mounted before it (security headers, trusted origin, CORS) and before every route. Nest's own middleware
 * mounting (`forRoutes('*path')`) gave each two layers that ran the `/*path` pattern, built its params and
 * a per-request WeakSet entry on every request: about 7 KB of the 72 KB a GET of an asset allocated
 * (bench/results/read-allocation.md). A body that the parsers refuse goes on as `next(error)` to Nest's
 * error layer, which answers through the global ErrorFilter as before.
 */
export function mountRequestMiddleware(app: INestApplication): void {
  const context = app.get(RequestContextMiddleware);
  const body = app.get(BodyParserMiddleware);
  app.use((request: Request, response: Response, next: NextFunction) => context.use(request, response, next));
  app.use((request: Request, response: Response, next: NextFunction) => {
    body.use(request, response, next).catch(next);
  });
}
