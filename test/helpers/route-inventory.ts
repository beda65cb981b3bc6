import type { Test } from 'supertest';
import { TestApp } from './test-app';

export type RouteMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** One route the running app serves, in Express form (`/rest/assets/:id/content`, `/files/*key`). */
export interface Route {
  method: RouteMethod;
  path: string;
}

interface ExpressLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

const METHODS: RouteMethod[] = ['get', 'post', 'put', 'delete', 'patch'];

export function routeName(route: { method: string; path: string }): string {
  return `${route.method.toUpperCase()} ${route.path}`;
}

/**
 * Every route registered on the app's Express router (Nest controllers, and what Swagger adds), read from
 * the running app, so a route added tomorrow is in the list without anyone editing a test.
 */
export function servedRoutes(t: TestApp): Route[] {
  const express = t.app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
  const routes: Route[] = [];
  for (const layer of express.router.stack) {
    if (layer.route === undefined) continue;
    const { path, methods } = layer.route;
    if (typeof path !== 'string') throw new Error(`a route with a non-string path: ${String(path)}`);
    for (const method of METHODS) if (methods[method] === true) routes.push({ method, path });
  }
  return routes;
}

/** The operations of the OpenAPI document at /docs/openapi.json, with `{param}` turned into `:param`. */
export async function documentedRoutes(t: TestApp): Promise<Route[]> {
  const document = (await t.http.get('/docs/openapi.json').expect(200)).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (operations[method] !== undefined) routes.push({ method, path: path.replace(/\{(\w+)\}/g, ':$1') });
    }
  }
  return routes;
}

/** The route's path with its parameters filled from `values` (by name), others with `fallback`. */
export function fillPath(
  path: string,
  values: Record<string, string | number> = {},
  fallback = '999999',
): string {
  return path.replace(/[:*](\w+)/g, (_all, name: string) => String(values[name] ?? fallback));
}

export interface RouteRequest {
  token?: string;
  authorization?: string;
  query?: Record<string, string | number>;
  json?: object;
  octets?: { body: Buffer; filename?: string };
  headers?: Record<string, string>;
}

/** A request on a route's method; a JSON or octet-stream body is sent only on POST, PUT and PATCH. */
export function requestRoute(
  t: TestApp,
  method: RouteMethod | 'head',
  path: string,
  options: RouteRequest = {},
): Test {
  let request = t.http[method](path).redirects(0);
  if (options.token !== undefined) request = request.auth(options.token, { type: 'bearer' });
  if (options.authorization !== undefined) request = request.set('Authorization', options.authorization);
  if (options.query !== undefined) request = request.query(options.query);
  for (const [name, value] of Object.entries(options.headers ?? {})) request = request.set(name, value);
  if (method === 'get' || method === 'head' || method === 'delete') return request;
  if (options.octets !== undefined) {
    request = request.set('Content-Type', 'application/octet-stream');
    if (options.octets.filename !== undefined) {
      request = request.set('Content-Disposition', `attachment; filename="${options.octets.filename}"`);
    }
    return request.send(options.octets.body);
  }
  return options.json === undefined ? request : request.send(options.json);
}

/** Runs `check` over `items`, `width` at a time, and gathers the failures it reports. */
export async function gatherFailures<T>(
  items: T[],
  check: (item: T) => Promise<string | undefined>,
  width = 8,
): Promise<string[]> {
  const failures: string[] = [];
  for (let start = 0; start < items.length; start += width) {
    const results = await Promise.all(items.slice(start, start + width).map(check));
    for (const result of results) if (result !== undefined) failures.push(result);
  }
  return failures;
}
