import { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp } from '../../apps/api/src/create-app';
import { createTestDatabase, Matrix, MATRIX, TestDatabase } from './databases';
import { startObjectStore, TestObjectStore } from './object-store';
import { TEST_COSTS } from './test-costs';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  token: string;
  url: string;
}

export interface TestAppOptions {
  matrix?: Matrix;
  /** Extra environment variables, as an operator would set them. */
  env?: Record<string, string>;
  /** Boot on this database (e.g. one the CLI prepared) instead of a fresh one; close() leaves it to its owner. */
  database?: TestDatabase;
  /** On the mysql matrix, use this object store (its owner stops it) instead of a fresh one. */
  objectStore?: TestObjectStore;
  /** Extension modules to boot with the API (examples/*, docs/extending.md). */
  extraModules?: Array<Type | DynamicModule>;
}

/**
 * One running API on a fresh database and storage, listening on a random port: tests talk to it over
 * real HTTP exactly as clients do.
 */
export class TestApp {
  readonly clientId = 'e2e-client';
  readonly clientSecret = randomBytes(18).toString('base64url');
  app: INestApplication;
  baseUrl: string;
  config: AppConfig;
  adminToken: string;
  private database: TestDatabase;
  private ownsDatabase = true;
  private objectStore: TestObjectStore | undefined;
  private ownsObjectStore = true;
  private userCounter = 0;

  static async start(options: TestAppOptions = {}): Promise<TestApp> {
    const testApp = new TestApp();
    await testApp.boot(options);
    return testApp;
  }

  get http() {
    return request(this.baseUrl);
  }

  /** `{origin}/rest/...` */
  rest(path = ''): string {
    return `${this.baseUrl}/rest${path === '' ? '' : `/${path.replace(/^\//, '')}`}`;
  }

  async clientCredentialsToken(): Promise<string> {
    const response = await this.http
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: this.clientId, client_secret: this.clientSecret })
      .expect(200);
    return response.body.access_token as string;
  }

  /** Creates a user through the API (as the application user) and logs them in with the password grant. */
  async createUser(options: { admin?: boolean; username?: string } = {}): Promise<TestUser> {
    this.userCounter += 1;
    const username = options.username ?? `user${this.userCounter}-${randomBytes(3).toString('hex')}`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const created = await this.http
      .post('/rest/users')
      .query({ username })
      .auth(this.adminToken, { type: 'bearer' })
      .expect(201);
    const url = created.headers.location as string;
    await this.http
      .put(new URL(url).pathname)
      .auth(this.adminToken, { type: 'bearer' })
      .send({ password, isAdmin: options.admin ?? false })
      .expect(200);
    const token = await this.http
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'password',
        username,
        password,
        client_id: this.clientId,
        client_secret: this.clientSecret,
      })
      .expect(200);
    return {
      id: created.body.id as number,
      username,
      password,
      token: token.body.access_token as string,
      url,
    };
  }

  async close(): Promise<void> {
    await this.app?.close();
    if (this.ownsObjectStore) await this.objectStore?.stop();
    if (this.ownsDatabase) await this.database?.drop();
  }

  private async boot(options: TestAppOptions): Promise<void> {
    const matrix = options.matrix ?? MATRIX;
    this.ownsDatabase = options.database === undefined;
    this.database = options.database ?? (await createTestDatabase(matrix, { migrated: true }));
    const env: Record<string, string> = {
      DAM_DATA_DIR: this.database.dataDir,
      DAM_CLIENT_ID: this.clientId,
      DAM_CLIENT_SECRET: this.clientSecret,
      DAM_LOG_REQUESTS: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
      DAM_JOBS_ENABLED: 'false',
      // No webhook deliveries in the background unless a spec asks (they would add statements anywhere).
      DAM_WEBHOOK_POLL_MS: '0',
      // Renditions are claimed when this process queues them (no background polling between statement counts).
      DAM_RENDITION_POLL_MS: '0',
      // No full collections of the whole test process between a spec's requests (HeapRelease).
      DAM_HEAP_RELEASE_MB: '0',
      ...TEST_COSTS,
    };
    if (this.database.databaseUrl !== undefined) env.DATABASE_URL = this.database.databaseUrl;
    if (matrix === 'mysql') {
      this.ownsObjectStore = options.objectStore === undefined;
      this.objectStore = options.objectStore ?? (await startObjectStore());
      Object.assign(env, this.objectStore.env);
    }
    this.config = AppConfig.fromEnv({ ...env, ...options.env });
    this.app = await createApp(this.config, ['error', 'warn'], options.extraModules);
    await this.app.listen(0, '127.0.0.1');
    const address = this.app.getHttpServer().address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${address.port}`;
    this.adminToken = await this.clientCredentialsToken();
  }
}

/**
 * One app for the enclosing `describe`, booted in its `beforeAll` with what `prepare` makes (users, a
 * world of fixtures), closed in its `afterAll`. The returned object is filled before the first test: read
 * its fields inside hooks and tests, not while the describe is being declared.
 */
export function appPerDescribe<T extends object>(
  prepare: (t: TestApp) => Promise<T>,
  options: TestAppOptions = {},
): { t: TestApp } & T {
  const suite = {} as { t: TestApp } & T;
  beforeAll(async () => {
    const t = await TestApp.start(options);
    Object.assign(suite, { t }, await prepare(t));
  });
  afterAll(async () => {
    await suite.t?.close();
  });
  return suite;
}

/** An admin and two users, alice and bob, each logged in (for `appPerDescribe`). */
export async function adminAliceAndBob(
  t: TestApp,
): Promise<{ admin: TestUser; alice: TestUser; bob: TestUser }> {
  const [admin, alice, bob] = await Promise.all([
    t.createUser({ admin: true }),
    t.createUser(),
    t.createUser(),
  ]);
  return { admin, alice, bob };
}
