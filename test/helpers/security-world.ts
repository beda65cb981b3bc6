import { OAuthClientsService, TokensService } from '@dam/access';
import { bearerRequests, pathOf } from './bearer-requests';
import { contentRequests } from './content-fixtures';
import { Grants } from './grant-fixtures';
import { Route } from './route-inventory';
import { TestApp, TestUser } from './test-app';

/**
 * Routes open without a bearer token, each with where it is documented. Everything else the app serves
 * must answer 401 without valid credentials; a new route that does not is a failure until it is listed here.
 */
export const PUBLIC_ROUTES: Array<{ matches: (route: Route) => boolean; why: string }> = [
  {
    matches: (r) => r.method === 'post' && r.path === '/oauth/token',
    why: 'OAuth token endpoint (DESIGN §3, §4)',
  },
  {
    matches: (r) => r.method === 'post' && r.path === '/oauth/revoke',
    why: 'RFC 7009 revocation (DESIGN §3)',
  },
  { matches: (r) => r.method === 'get' && r.path === '/health', why: 'load balancer health (DESIGN §3)' },
  {
    matches: (r) => r.method === 'get' && (r.path === '/health/live' || r.path === '/health/ready'),
    why: 'liveness and readiness probes (DESIGN §3)',
  },
  {
    matches: (r) => r.method === 'get' && r.path === '/metrics',
    why: 'Prometheus scrapes; DAM_METRICS_TOKEN protects it when set (DESIGN §2, §3)',
  },
  {
    matches: (r) => r.method === 'get' && /^\/docs($|\/|-)/.test(r.path),
    why: 'OpenAPI document and Swagger UI (DESIGN §3)',
  },
  {
    matches: (r) => r.method === 'get' && r.path === '/files/*key',
    why: 'signed downloads of the fs store: the signature is the credential (DESIGN §13)',
  },
  {
    matches: (r) => r.method === 'get' && r.path.startsWith('/rest/shared/:token'),
    why: 'share links: the 256-bit token (stored hashed) is the credential, plus X-Share-Password (DESIGN §12)',
  },
];

export function isPublic(route: Route): boolean {
  return PUBLIC_ROUTES.some((entry) => entry.matches(route));
}

/**
 * The people of the security spec, on one access level of their own:
 * - alice and bob: view, download, upload, edit and delete (everything but approve), neither admin;
 * - carol: view and upload-with-approval (her uploads wait for approval);
 * - vera: view only; dan: view and download; admin: an administrator.
 */
export class SecurityWorld {
  level: number;
  alice: TestUser;
  bob: TestUser;
  carol: TestUser;
  vera: TestUser;
  dan: TestUser;
  admin: TestUser;
  applicationUserId: number;

  private constructor(private readonly t: TestApp) {}

  static async create(t: TestApp): Promise<SecurityWorld> {
    const world = new SecurityWorld(t);
    const grants = new Grants(t);
    world.level = await grants.topLevel('Security');
    const broad = ['view', 'download', 'upload', 'edit', 'delete'];
    const people: Array<[keyof SecurityWorld & string, string[]]> = [
      ['alice', broad],
      ['bob', broad],
      ['carol', ['view', 'uploadWithApproval']],
      ['vera', ['view']],
      ['dan', ['view', 'download']],
    ];
    for (const [name, permissions] of people) {
      const user = await t.createUser();
      await grants.give(user.id, [world.level], permissions);
      Object.assign(world, { [name]: user });
    }
    world.admin = await t.createUser({ admin: true });
    const application = await bearerRequests(() => t)
      .get('/rest/authenticated-user', t.adminToken)
      .expect(200);
    world.applicationUserId = application.body.id as number;
    return world;
  }

  /** A new asset in the world's level created by the holder of `token`; its path. */
  async asset(
    token: string,
    options: { submit?: boolean; content?: Buffer; filename?: string } = {},
  ): Promise<string> {
    const created = await bearerRequests(() => this.t)
      .post('/rest/assets', token, { accessLevels: [{ id: this.level }], submit: options.submit ?? true })
      .expect(201);
    const path = pathOf(created.headers.location as string);
    if (options.content !== undefined) {
      await contentRequests(() => this.t)
        .upload(path, token, options.content, options.filename ?? 'file.bin')
        .expect(200);
    }
    return path;
  }

  /** An access token of `user` that expires after `ttlSeconds` (the service's own issuing path). */
  async tokenFor(user: { id: number }, ttlSeconds?: number): Promise<string> {
    const client = await this.t.app.get(OAuthClientsService).findByClientId(this.t.clientId);
    if (client === null) throw new Error('the test OAuth client is missing');
    const issued = await this.t.app
      .get(TokensService)
      .issue(client, user.id, { withRefreshToken: false, ttlSeconds });
    return issued.access_token;
  }
}
