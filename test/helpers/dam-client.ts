import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../generated/dam-api';

/**
 * A typed client of the DAM REST API: openapi-fetch over the types openapi-typescript generated from the
 * OpenAPI document. This file only imports the generated types and openapi-fetch, so that
 * test/openapi.e2e-spec.ts can type-check it on its own: if the document stops describing what these
 * calls send and read, it no longer compiles.
 */
export type DamClient = Client<paths>;
export type Asset = components['schemas']['AssetSchema'];
export type User = components['schemas']['UserSchema'];
export type AssetSummary = components['schemas']['AssetSummarySchema'];

export function damClient(baseUrl: string, token?: string): DamClient {
  return createClient<paths>({
    baseUrl,
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
}

/** `data`, or an error naming the operation, its status and the plain-text message. */
function ok<T>(label: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${label}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/** The password grant at /oauth/token, form-encoded as RFC 6749 asks. */
export async function passwordToken(
  client: DamClient,
  credentials: { clientId: string; clientSecret: string; username: string; password: string },
): Promise<string> {
  const result = await client.POST('/oauth/token', {
    body: {
      grant_type: 'password',
      username: credentials.username,
      password: credentials.password,
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
  });
  return ok('POST /oauth/token', result).access_token;
}

/** Creates a user (`?username=`) and sets their password and admin flag. */
export async function createUser(
  admin: DamClient,
  user: { username: string; password: string; isAdmin: boolean },
): Promise<User> {
  const created = ok(
    'POST /rest/users',
    await admin.POST('/rest/users', { params: { query: { username: user.username } } }),
  );
  return ok(
    'PUT /rest/users/{id}',
    await admin.PUT('/rest/users/{id}', {
      params: { path: { id: created.id } },
      body: { password: user.password, isAdmin: user.isAdmin },
    }),
  );
}

export async function createAsset(client: DamClient, accessLevelId: number): Promise<Asset> {
  const result = await client.POST('/rest/assets', { body: { accessLevels: [{ id: accessLevelId }] } });
  return ok('POST /rest/assets', result);
}

/** PUT of the raw bytes, named by `Content-Disposition`. */
export async function uploadContent(
  client: DamClient,
  assetId: number,
  file: { bytes: Uint8Array<ArrayBuffer>; filename: string },
): Promise<number> {
  const { response } = await client.PUT('/rest/assets/{id}/content', {
    params: { path: { id: assetId } },
    body: new Blob([file.bytes]),
    headers: {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${file.filename}"`,
    },
    bodySerializer: (body) => body,
  });
  return response.status;
}

export async function getAsset(client: DamClient, assetId: number): Promise<Asset> {
  return ok(
    'GET /rest/assets/{id}',
    await client.GET('/rest/assets/{id}', { params: { path: { id: assetId } } }),
  );
}

export async function searchByFilename(
  client: DamClient,
  filename: string,
): Promise<{ summaries: AssetSummary[]; total: number }> {
  const result = await client.GET('/rest/asset-search', { params: { query: { filename } } });
  const data = ok('GET /rest/asset-search', result);
  return {
    // A plain array, or `{results, facets}` when facets are asked for.
    summaries: Array.isArray(data) ? data : data.results,
    total: Number(result.response.headers.get('X-Total-Count')),
  };
}
