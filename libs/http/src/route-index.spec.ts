import express, { Express, NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { indexRoutes } from './route-index';

/** An app shaped like Nest's: a middleware, then the routes, then a 404 handler; answers name the route. */
function appWithRoutes(routes: Array<[method: 'get' | 'put' | 'post', path: string]>): Express {
  const app = express();
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Before', 'yes');
    next();
  });
  for (const [method, path] of routes) {
    app[method](path, (req: Request, res: Response) => {
      res.json({ route: `${method.toUpperCase()} ${path}`, params: req.params, url: req.url });
    });
  }
  app.use((req: Request, res: Response) => {
    res.status(404).type('text/plain').send(`no route for ${req.method} ${req.path}`);
  });
  return app;
}

const ROUTES: Array<['get' | 'put' | 'post', string]> = [
  ['get', '/rest'],
  ['get', '/rest/assets'],
  ['get', '/rest/assets/search'],
  ['get', '/rest/assets/:id'],
  ['put', '/rest/assets/:id'],
  ['get', '/rest/categories/:id/children'],
  ['get', '/files/*key'],
  ['post', '/oauth/token'],
];

describe('indexRoutes', () => {
  let indexed: Express;
  let plain: Express;

  beforeAll(() => {
    plain = appWithRoutes(ROUTES);
    indexed = appWithRoutes(ROUTES);
    indexRoutes(indexed);
  });

  /** Status, body and Allow/X-Before headers of one request, for comparing the two apps. */
  async function answer(app: Express, method: string, path: string) {
    const response = await request(app)[method.toLowerCase() as 'get'](path);
    return {
      status: response.status,
      body: response.text,
      allow: response.headers.allow,
      before: response.headers['x-before'],
    };
  }

  it('puts one layer in front of the routes and keeps them where they were', () => {
    const stack = (indexed.router as unknown as { stack: Array<{ route?: unknown }> }).stack;
    const plainStack = (plain.router as unknown as { stack: Array<{ route?: unknown }> }).stack;
    expect(stack).toHaveLength(plainStack.length + 1);
    const first = stack.findIndex((layer) => layer.route !== undefined);
    expect(stack[first - 1].route).toBeUndefined();
    expect(stack.filter((layer) => layer.route !== undefined)).toHaveLength(ROUTES.length);
  });

  it.each([
    ['GET', '/rest'],
    ['GET', '/rest/'],
    ['GET', '/rest/assets'],
    ['GET', '/rest/assets/'],
    ['GET', '/rest/assets/search'],
    ['GET', '/rest/assets/42'],
    ['GET', '/REST/Assets/42'],
    ['HEAD', '/rest/assets/42'],
    ['PUT', '/rest/assets/42'],
    ['GET', '/rest/assets/42?x=1'],
    ['GET', '/rest/categories/7/children'],
    ['GET', '/files/a/b/c.jpg'],
    ['GET', '/files'],
    ['POST', '/oauth/token'],
    // Not routed: the same 404 (or 405-like fall-through) as without the index.
    ['DELETE', '/rest/assets/42'],
    ['GET', '/rest/asset%73/42'],
    ['GET', '/rest/assets/42/more'],
    ['GET', '/rest/unknown'],
    ['GET', '//rest/assets/42'],
    ['GET', '/'],
    ['GET', '/nothing'],
    ['POST', '/rest/assets/42'],
    ['OPTIONS', '/rest/assets/42'],
    ['OPTIONS', '/nothing'],
  ])('%s %s answers as without the index', async (method, path) => {
    expect(await answer(indexed, method, path)).toEqual(await answer(plain, method, path));
  });

  it('matches a request only against the routes of its group', async () => {
    const app = appWithRoutes(ROUTES);
    indexRoutes(app);
    const layers = (
      app.router as unknown as {
        stack: Array<{ route?: { path: string }; match: (path: string) => unknown }>;
      }
    ).stack;
    const tried: string[] = [];
    for (const layer of layers) {
      if (layer.route === undefined) continue;
      const match = layer.match.bind(layer);
      const path = layer.route.path;
      layer.match = (requested: string) => {
        tried.push(path);
        return match(requested);
      };
    }
    await request(app).get('/rest/categories/7/children').expect(200);
    expect(tried).toEqual(['/rest/categories/:id/children']);
    tried.length = 0;
    await request(app).put('/rest/assets/42').expect(200);
    expect(tried).toEqual(['/rest/assets', '/rest/assets/search', '/rest/assets/:id', '/rest/assets/:id']);
  });

  it('keeps the order of the routes within a group (the literal /search before /:id)', async () => {
    const response = await request(indexed).get('/rest/assets/search').expect(200);
    expect(response.body).toEqual({
      route: 'GET /rest/assets/search',
      params: {},
      url: '/rest/assets/search',
    });
  });

  it('leaves the app as it is when a route starts with a parameter', async () => {
    const app = appWithRoutes([
      ['get', '/rest/assets/:id'],
      ['get', '/:anything/assets/:id'],
    ]);
    const before = (app.router as unknown as { stack: unknown[] }).stack.length;
    indexRoutes(app);
    expect((app.router as unknown as { stack: unknown[] }).stack).toHaveLength(before);
    expect((await request(app).get('/other/assets/1').expect(200)).body.route).toBe(
      'GET /:anything/assets/:id',
    );
  });
});
