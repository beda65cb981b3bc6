import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { IdPipe } from '@dam/http';
import type { Request } from 'express';

/** The lightbox a path below `/rest/users/{ownerId}/lightboxes/{lightboxId}` names. */
export interface LightboxPath {
  ownerId: number;
  lightboxId: number;
}

const ownerIds = new IdPipe('user');
const lightboxIds = new IdPipe('lightbox');

/** Parses both ids of the path at once (bad or huge ids are 404, as with IdPipe). */
export const AtLightbox = createParamDecorator((_data: unknown, context: ExecutionContext): LightboxPath => {
  const { params } = context.switchToHttp().getRequest<Request>();
  return {
    ownerId: ownerIds.transform(String(params.ownerId)),
    lightboxId: lightboxIds.transform(String(params.lightboxId)),
  };
});
