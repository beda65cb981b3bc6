import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { exportJWK, generateKeyPair, JWK, JWTPayload, SignJWT } from 'jose';

/** The resource (RFC 8707) the tokens are for: DAM_OIDC_AUDIENCE of the service under test. */
export const AUDIENCE = 'https://dam.test/rest';
const CLIENT_ID = 'dam-e2e';
const CLIENT_SECRET = 'dam-e2e-secret-with-enough-length-0123456789';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
}

/** An RS256 key pair with its key id, as an identity provider holds it. */
export async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk, privateJwk };
}

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A real OpenID Provider (panva's oidc-provider) on loopback: its discovery document and JWKS, and JWT
 * access tokens for AUDIENCE through the client_credentials grant with a resource indicator. The claims
 * of the next token (the user's) are what `issue` is given, through the provider's extraTokenClaims.
 * `rotate` starts it again with other keys; `availability` makes it refuse connections or hang.
 */
export class OidcIssuer {
  issuer = '';
  key!: SigningKey;
  /** How many times the service fetched the key set. */
  jwksFetches = 0;
  availability: 'up' | 'refusing' | 'hanging' = 'up';
  private server!: Server;
  private listener!: Listener;
  private nextClaims: JWTPayload = {};
  private readonly sockets = new Set<Socket>();

  static async start(): Promise<OidcIssuer> {
    const issuer = new OidcIssuer();
    issuer.server = createServer((request, response) => issuer.handle(request, response));
    issuer.server.on('connection', (socket) => {
      issuer.sockets.add(socket);
      socket.on('close', () => issuer.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => issuer.server.listen(0, '127.0.0.1', resolve));
    issuer.issuer = `http://127.0.0.1:${(issuer.server.address() as AddressInfo).port}`;
    await issuer.rotate('key-1');
    return issuer;
  }

  /** A provider with a new signing key (the old one no longer published). */
  async rotate(kid: string): Promise<void> {
    this.key = await signingKey(kid);
    const { default: Provider } = await import('oidc-provider');
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [this.key.privateJwk] },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => AUDIENCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'dam',
            audience: AUDIENCE,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      ttl: { ClientCredentials: 600 },
      extraTokenClaims: () => this.nextClaims,
    });
    this.listener = provider.callback();
  }

  /** A JWT access token from the provider's token endpoint, carrying `claims` (the user's). */
  async issue(claims: JWTPayload): Promise<string> {
    this.nextClaims = claims;
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        resource: AUDIENCE,
        scope: 'dam',
      }),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || body.access_token === undefined)
      throw new Error(`token endpoint: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }

  /** A token signed by hand (the provider's key unless another is given), for the refusals. */
  async sign(
    claims: JWTPayload,
    options: { key?: SigningKey; kid?: string; expiresIn?: string | number } = {},
  ): Promise<string> {
    const key = options.key ?? this.key;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid })
      .setIssuer(typeof claims.iss === 'string' ? claims.iss : this.issuer)
      .setAudience(claims.aud ?? AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '10m')
      .sign(key.privateKey);
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    if (this.availability === 'refusing') {
      request.socket.destroy();
      return;
    }
    if (this.availability === 'hanging') return;
    if (request.url?.startsWith('/jwks') === true) this.jwksFetches += 1;
    this.listener(request, response);
  }
}
