import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { OAuthError } from '@dam/access';
import type { Response } from 'express';

/** OAuth errors leave as RFC 6749 5.2 JSON; everything else falls through to the global filter. */
@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter {
  catch(error: OAuthError, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (error.status === 401) response.setHeader('WWW-Authenticate', 'Basic realm="oauth"');
    response.setHeader('Cache-Control', 'no-store');
    response.status(error.status).json({ error: error.code, error_description: error.description });
  }
}
