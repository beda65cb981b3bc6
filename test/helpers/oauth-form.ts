import type { TestApp } from './test-app';

/** A form-encoded POST, the body the OAuth token and revocation endpoints take. */
export function postForm(t: TestApp, path: string, body: Record<string, unknown>) {
  return t.http.post(path).type('form').send(body);
}
