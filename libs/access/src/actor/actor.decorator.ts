import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { NotAuthenticated } from '@dam/errors';
import type { ActorUser, AuthenticatedRequest, Principal } from './actor';

/**
 * The user the request acts as: the authenticated user, or the one named by `?userId=` when the caller
 * may act as others (resolved by the auth guard).
 */
export const Actor = createParamDecorator((_data: unknown, context: ExecutionContext): ActorUser => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (request.actor === undefined) throw new NotAuthenticated();
  return request.actor;
});

/** The authenticated caller itself, regardless of `?userId=`. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (request.principal === undefined) throw new NotAuthenticated();
  return request.principal;
});
