import { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';

/** Maps a raw request body (an XML document arrives as a string) to its JSON shape, or throws InvalidInput. */
export type JsonShape = (body: unknown) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * Replaces `request.body` by its JSON shape before the pipes run, so that a route accepting JSON or XML
 * still receives a DTO from the global ValidationPipe. A body that cannot be shaped (malformed XML, a
 * JSON array, ...) is refused here, with the message of the route's `shape`.
 */
export class XmlBodyInterceptor implements NestInterceptor {
  constructor(private readonly shape: JsonShape) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    request.body = await this.shape(request.body);
    return next.handle();
  }
}
