import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
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
