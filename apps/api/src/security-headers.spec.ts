import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { headersSetBy, SECURITY_HEADER_OPTIONS, securityHeaders } from './http-semantics';

/** The headers a middleware leaves on a real (unsent) response. */
function headersAfter(middleware: RequestHandler): Record<string, unknown> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  response.setHeader('X-Powered-By', 'Express');
  middleware(request as never, response as never, () => undefined);
  return response.getHeaders();
}

describe('securityHeaders', () => {
  it('sets exactly what running helmet with the same options on each request sets', () => {
    const perRequest = helmet(SECURITY_HEADER_OPTIONS) as RequestHandler;
    const expected = headersAfter(perRequest);
    expect(expected['x-powered-by']).toBeUndefined();
    expect(expected['content-security-policy']).toContain("default-src 'self'");
    const recorded = headersAfter(securityHeaders());
    delete recorded['x-powered-by'];
    expect(recorded).toEqual(expected);
  });

  it('refuses at boot a middleware whose headers depend on the request', () => {
    const perRequestNonce = helmet({
      contentSecurityPolicy: {
        directives: { scriptSrc: [(request) => `'nonce-${String((request as { id?: string }).id)}'`] },
      },
    }) as RequestHandler;
    expect(() => headersSetBy(perRequestNonce)).toThrow(/depend on the request/);
  });

  it('refuses a middleware that does not pass the request on at once', () => {
    expect(() => headersSetBy(() => undefined)).toThrow(/did not pass the request on/);
  });
});
