import type { Response } from 'supertest';
import { createTestDatabase, MATRIX, TestDatabase } from './databases';
import { startObjectStore, TestObjectStore } from './object-store';
import { TestApp } from './test-app';

/** The limits of the lockout and token-endpoint specs: small, so a test passes them in a few requests. */
export const MAX_FAILURES = 3;
export const MAX_PER_ADDRESS = 6;
/** Longer than any test: no lock ends by itself. */
export const WINDOW_SECONDS = 600;

/** A 429 of the login throttle: plain text and a `Retry-After`. */
export function expectLocked(response: Response): void {
  expect(response.status).toBe(429);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/** One API with those limits on its own database (and store, on the mysql matrix). */
export interface ThrottledApp {
  t: TestApp;
  database: TestDatabase;
  store: TestObjectStore | undefined;
  close(): Promise<void>;
}

/** X-Forwarded-For (DAM_TRUST_PROXY) makes one test process several clients. */
export async function startThrottledApp(): Promise<ThrottledApp> {
  const database = await createTestDatabase(MATRIX, { migrated: true });
  const store = MATRIX === 'mysql' ? await startObjectStore() : undefined;
  const t = await TestApp.start({
    database,
    objectStore: store,
    env: {
      DAM_LOGIN_MAX_FAILURES: String(MAX_FAILURES),
      DAM_LOGIN_MAX_FAILURES_PER_ADDRESS: String(MAX_PER_ADDRESS),
      DAM_LOGIN_WINDOW_SECONDS: String(WINDOW_SECONDS),
      DAM_TRUST_PROXY: 'true',
    },
  });
  return {
    t,
    database,
    store,
    close: async () => {
      await t.close();
      await store?.stop();
      await database.drop();
    },
  };
}
