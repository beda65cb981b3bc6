import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { promisify } from 'node:util';
import {
  createAsset,
  createUser,
  damClient,
  getAsset,
  passwordToken,
  searchByFilename,
  uploadContent,
} from './helpers/dam-client';
import { defaultAccessLevelId } from './helpers/permission-fixtures';
import { documentedRoutes, routeName, servedRoutes } from './helpers/route-inventory';
import { TestApp } from './helpers/test-app';
import { FROM_SOURCES } from './helpers/from-sources';

jest.setTimeout(180_000);

const DAM_API_TYPES = path.join(__dirname, 'generated/dam-api.d.ts');

/** The client types of `document`, as `npm run openapi:client` writes them (in a child process). */
async function clientTypesOf(document: object): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-api-types-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document));
    await promisify(execFile)(
      process.execPath,
      [
        ...FROM_SOURCES,
        path.join(__dirname, 'helpers/write-dam-api-types.ts'),
        path.join(dir, 'openapi.json'),
        path.join(dir, 'dam-api.d.ts'),
      ],
      { cwd: path.resolve(__dirname, '..') },
    );
    return fs.readFileSync(path.join(dir, 'dam-api.d.ts'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Routes deliberately left out of the document, each with its reason. Anything else the app serves must be
 * in it: a route added without its description fails here.
 */
const UNDOCUMENTED: Array<{ route: RegExp; why: string }> = [
  { route: /^GET \/docs/, why: 'Swagger UI and the document itself' },
  { route: / \{\/\*splat\}$/, why: 'middleware Nest mounts on every path (nestjs-pino), not a route' },
  {
    route: /^GET \/files\//,
    why: 'signed file URLs: clients follow them, never build them (@ApiExcludeController)',
  },
];

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  security?: object[];
  parameters?: Array<{ name: string; in: string; schema?: object }>;
  requestBody?: { content: Record<string, { schema?: object }> };
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, unknown>> };
}

interface Schema {
  type?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operations(document: Document): Array<{ name: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({
      name: `${method.toUpperCase()} ${path}`,
      path,
      operation: item[method],
    })),
  );
}

/** Properties (at any depth, through references) that are an `object` with nothing said about it. */
function bareObjects(
  schema: Schema | undefined,
  document: Document,
  where: string,
  seen = new Set<string>(),
): string[] {
  if (schema === undefined) return [];
  if (schema.$ref !== undefined) {
    const name = schema.$ref.split('/').pop() as string;
    if (seen.has(name)) return [];
    seen.add(name);
    return bareObjects(document.components.schemas[name], document, name, seen);
  }
  const found: string[] = [];
  const described =
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined ||
    schema.allOf !== undefined ||
    schema.oneOf !== undefined;
  if (schema.type === 'object' && !described) found.push(where);
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    found.push(...bareObjects(property, document, `${where}.${name}`, seen));
  if (schema.items !== undefined) found.push(...bareObjects(schema.items, document, `${where}[]`, seen));
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? [])])
    found.push(...bareObjects(part, document, where, seen));
  return found;
}

describe('the OpenAPI document and a client generated from it', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await TestApp.start();
    document = (await t.http.get('/docs/openapi.json').expect(200)).body as Document;
  });
  afterAll(() => t?.close());

  it('describes every route the app serves, and only those', async () => {
    const served = servedRoutes(t).map(routeName);
    const documented = (await documentedRoutes(t)).map(routeName);
    // (a discovery that found nothing would prove nothing)
    expect(served).toEqual(expect.arrayContaining(['POST /rest/assets', 'PUT /rest/assets/:id/content']));
    const undocumented = served.filter(
      (name) => !documented.includes(name) && !UNDOCUMENTED.some((entry) => entry.route.test(name)),
    );
    expect(undocumented).toEqual([]);
    expect(documented.filter((name) => !served.includes(name))).toEqual([]);
  });

  it('gives every operation a unique operationId, a tag, a summary, its path parameters and security', () => {
    const all = operations(document);
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => id === undefined || !/^[A-Za-z0-9_]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const problems: string[] = [];
    for (const { name, path: route, operation } of all) {
      if ((operation.tags ?? []).length === 0) problems.push(`${name}: no tag`);
      if (!operation.summary) problems.push(`${name}: no summary`);
      if (operation.security === undefined) problems.push(`${name}: no security requirement`);
      for (const [, parameter] of route.matchAll(/\{(\w+)\}/g)) {
        const declared = (operation.parameters ?? []).some((p) => p.in === 'path' && p.name === parameter);
        if (!declared) problems.push(`${name}: path parameter ${parameter} not declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a schema for every body, success response and error, and no property left a bare object', () => {
    const problems: string[] = [];
    for (const { name, operation } of operations(document)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        if (media.schema === undefined) problems.push(`${name}: request ${type} without a schema`);
        problems.push(...bareObjects(media.schema, document, `${name} request`));
      }
      const statuses = Object.keys(operation.responses);
      if (!statuses.some((status) => /^[23]\d\d$/.test(status)))
        problems.push(`${name}: no success response`);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.schema === undefined) problems.push(`${name} ${status} ${type}: no schema`);
          else problems.push(...bareObjects(media.schema, document, `${name} ${status}`));
        }
        // Errors are the error filter's one line of text (OAuth's are RFC 6749 JSON).
        if (
          /^4\d\d$/.test(status) &&
          !name.includes('/oauth/') &&
          response.content?.['text/plain'] === undefined
        )
          problems.push(`${name} ${status}: not text/plain`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares an opaque bearer token and OAuth 2 password, client-credentials and refresh at /oauth/token', () => {
    const { bearer, oauth2 } = document.components.securitySchemes as Record<string, Record<string, never>>;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.bearerFormat).toBeUndefined();
    expect(oauth2.type).toBe('oauth2');
    const flows = oauth2.flows as Record<string, { tokenUrl: string; refreshUrl?: string }>;
    expect(Object.keys(flows).sort()).toEqual(['clientCredentials', 'password']);
    for (const flow of Object.values(flows))
      expect(flow).toMatchObject({ tokenUrl: '/oauth/token', refreshUrl: '/oauth/token' });
    const token = document.paths['/oauth/token'].post;
    expect(Object.keys(token.requestBody?.content ?? {})).toContain('application/x-www-form-urlencoded');
    expect(token.security).toEqual([]);
    expect(document.paths['/rest/assets'].post.security).toEqual([{ bearer: [] }, { oauth2: [] }]);
    expect(Object.keys(document.paths['/rest/assets/{id}/content'].put.requestBody?.content ?? {})).toContain(
      'application/octet-stream',
    );
    expect(Object.keys(document.paths['/rest/assets'].post.requestBody?.content ?? {}).sort()).toEqual([
      'application/json',
      'application/xml',
    ]);
  });

  it('matches the committed client types (test/generated/dam-api.d.ts; else run `npm run openapi:client`)', async () => {
    const committed = fs.readFileSync(DAM_API_TYPES, 'utf8');
    const generated = await clientTypesOf(document);
    expect(generated === committed ? 'up to date' : 'stale: run `npm run openapi:client`').toBe('up to date');
  });

  it('compiles a client of those types with openapi-fetch (test/helpers/dam-client.ts)', () => {
    const root = path.resolve(__dirname, '..');
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    const program = ts.createProgram([path.join(__dirname, 'helpers/dam-client.ts')], {
      ...config?.options,
      noEmit: true,
      types: ['node'],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    // The client file and the generated types were part of the program (a program of nothing compiles).
    const files = program.getSourceFiles().map((file) => path.relative(root, file.fileName));
    expect(files).toEqual(
      expect.arrayContaining(['test/helpers/dam-client.ts', 'test/generated/dam-api.d.ts']),
    );
  });

  it('creates a user, an asset, uploads its content and finds it by search, through the generated client', async () => {
    const admin = damClient(t.baseUrl, t.adminToken);
    const username = `openapi-${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const user = await createUser(admin, { username, password, isAdmin: true });
    expect(user).toMatchObject({ username, isAdmin: true });

    const token = await passwordToken(damClient(t.baseUrl), {
      clientId: t.clientId,
      clientSecret: t.clientSecret,
      username,
      password,
    });
    const client = damClient(t.baseUrl, token);
    const asset = await createAsset(client, await defaultAccessLevelId(t));
    expect(asset.url).toBe(t.rest(`assets/${asset.id}`));

    const filename = `openapi-${randomBytes(4).toString('hex')}.txt`;
    const bytes = new TextEncoder().encode('content sent by the generated client');
    expect(await uploadContent(client, asset.id, { bytes, filename })).toBe(200);

    const stored = await getAsset(client, asset.id);
    expect(stored.attributes.map((attribute) => attribute.value)).toContain(filename);
    const { summaries, total } = await searchByFilename(client, filename);
    expect(summaries.map((summary) => [summary.id, summary.originalFilename])).toEqual([
      [asset.id, filename],
    ]);
    expect(total).toBe(1);
    // What the content URL gives is what was uploaded.
    const download = await fetch(stored.contentUrl, { headers: { Authorization: `Bearer ${token}` } });
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('content sent by the generated client');
  });
});
