import type { Request } from 'express';
import { METHODS } from 'node:http';

/** What this module reads of Express 5's router (the `router` package): route layers and their methods. */
interface RouteLayer {
  route?: { methods: Record<string, boolean | undefined>; _methods(includeAll?: boolean): string[] };
  match(path: string): unknown;
}

interface RoutedApplication {
  router?: { stack?: RouteLayer[] };
}

/** The route layers of each application, collected once: routes are all registered before it listens. */
const routeLayers = new WeakMap<object, RouteLayer[]>();

/**
 * The methods the application answers at `request.path`, from the routes registered on its Express router
 * (so every route any area adds is covered without a list to keep), sorted, with HEAD wherever GET is and
 * OPTIONS; empty when no route has this path. Asked only when no route took the request, so its cost is
 * off the normal path.
 */
export function allowedMethods(request: Request): string[] {
  const app = request.app as unknown as RoutedApplication & object;
  let layers = routeLayers.get(app);
  if (layers === undefined) {
    // A route for every method is middleware registered per path (nestjs-pino's `{/*splat}`, `@All`):
    // it never decides which methods a path has (a real `@All` handler would have answered already).
    layers = (app.router?.stack ?? []).filter(
      (layer) =>
        layer.route !== undefined &&
        !layer.route.methods._all &&
        layer.route._methods().length < METHODS.length,
    );
    routeLayers.set(app, layers);
  }
  const methods = new Set<string>();
  for (const layer of layers) {
    if (layer.route === undefined || !layer.match(request.path)) continue;
    for (const method of layer.route._methods()) methods.add(method);
  }
  if (methods.size === 0) return [];
  methods.add('OPTIONS');
  return [...methods].sort();
}
