import { Router } from 'express';
import type { Express, NextFunction, Request, Response } from 'express';

/** The parts of Express 5's router (the `router` package) this reads. */
interface RouteLayer {
  route?: { path: unknown };
}
interface RouterWithStack {
  stack: RouteLayer[];
  handle(request: Request, response: Response, next: NextFunction): void;
}

/** A path segment that matches only itself (no `:param`, `*wildcard`, `{optional}` or escape). */
const LITERAL = /^[A-Za-z0-9._~-]*$/;

/**
 * Express 5 tries a request against its route layers one after the other: with the API's ~150 routes, a
 * GET of an asset ran some 90 regular expressions (about a tenth of its CPU) before reaching its own.
 * This puts one layer in front of the routes that hands the request to a router holding only the routes
 * of its first two path segments (`/rest/assets`), in their order. Routes whose second segment is not
 * literal (`/files/*key`) are grouped by their first segment alone.
 *
 * Nothing else changes: the routes stay where they were, after this layer, and a request its group does
 * not answer (no route of that path, or no route for its method) goes on through them as before, to the
 * same 404 or 405. A route of one group can never match the path of another group, since both segments
 * are literal and compared as Express compares them (case-insensitively unless `case sensitive routing`).
 * OPTIONS requests skip the index, so that Express's automatic `Allow` answer is the one it gave before.
 * Routes must not hand a request on with `next()` (no Nest handler does): the routes after the group
 * would run it again.
 *
 * Called once, after Nest registered every route (createApp). Leaves the app as it is when some route's
 * first segment is not literal, as then no grouping is safe.
 */
export function indexRoutes(app: Express): void {
  const stack = (app.router as unknown as RouterWithStack).stack;
  const block = longestRouteRun(stack);
  if (block.length < 2) return;
  const caseSensitive = app.get('case sensitive routing') === true;
  const fold = (segment: string) => (caseSensitive ? segment : segment.toLowerCase());
  const segmentsOf = new Map<RouteLayer, string[]>();
  for (const layer of block) {
    const path = layer.route?.path;
    if (typeof path !== 'string' || !path.startsWith('/')) return;
    const segments = path.slice(1).split('/').map(fold);
    if (!LITERAL.test(segments[0])) return;
    segmentsOf.set(layer, segments);
  }
  // By first segment: 2 when every route under it has a literal second segment (or none), else 1.
  const depths = new Map<string, 1 | 2>();
  for (const [, [first, second = '']] of segmentsOf) {
    const depth = LITERAL.test(second) ? 2 : 1;
    depths.set(first, Math.min(depths.get(first) ?? 2, depth) as 1 | 2);
  }
  const groups = new Map<string, RouterWithStack>();
  for (const layer of block) {
    const [first, second = ''] = segmentsOf.get(layer) ?? [];
    const key = depths.get(first) === 2 ? `${first}/${second}` : first;
    let group = groups.get(key);
    if (group === undefined) {
      group = Router({
        caseSensitive,
        strict: app.get('strict routing') === true,
      }) as unknown as RouterWithStack;
      groups.set(key, group);
    }
    group.stack.push(layer);
  }
  const dispatch = (request: Request, response: Response, next: NextFunction): void => {
    if (request.method === 'OPTIONS') return next();
    const path = request.path;
    const firstEnd = path.indexOf('/', 1);
    const first = fold(path.slice(1, firstEnd < 0 ? undefined : firstEnd));
    const depth = depths.get(first);
    if (depth === undefined) return next();
    let key = first;
    if (depth === 2) {
      const secondEnd = firstEnd < 0 ? -1 : path.indexOf('/', firstEnd + 1);
      const second = firstEnd < 0 ? '' : path.slice(firstEnd + 1, secondEnd < 0 ? undefined : secondEnd);
      key = `${first}/${fold(second)}`;
    }
    const group = groups.get(key);
    if (group === undefined) return next();
    group.handle(request, response, next);
  };
  // A layer like app.use(dispatch) makes, placed just before the routes.
  app.use(dispatch);
  const added = stack.pop();
  if (added !== undefined) stack.splice(stack.indexOf(block[0]), 0, added);
}

/** The longest run of consecutive route layers (Nest's controllers; /docs registers a short one first). */
function longestRouteRun(stack: RouteLayer[]): RouteLayer[] {
  let best = { start: 0, end: 0 };
  let start = 0;
  stack.forEach((layer, index) => {
    if (layer.route === undefined) start = index + 1;
    else if (index + 1 - start > best.end - best.start) best = { start, end: index + 1 };
  });
  return stack.slice(best.start, best.end);
}
