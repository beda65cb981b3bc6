import fc from 'fast-check';
import { Readable } from 'node:stream';
import { streamRequest, StreamedReply } from './raw-http';
import {
  brokenEncoding,
  CONTENT_TYPES,
  ENTITY_XML,
  MALFORMED_JSON,
  headerValue,
  oddNumber,
  percentEncode,
  text,
} from './fuzz-values';
import type { Route } from './route-inventory';
import { TestApp } from './test-app';

/** A request as plain data, so that fast-check can print (and shrink) it. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: { contentType?: string; data: string | number[] };
  /** The generators' alternatives this request took (VALUE_KINDS), so a run can show it sent each kind. */
  kinds?: string[];
}

/**
 * Every alternative of the generators below: the kinds of body, path id, query and credential a fuzzed
 * request may carry. A run must send each of them at least once (test/fuzz-routes.e2e-spec.ts), so a small
 * budget of requests per route still covers every kind of value.
 */
export const VALUE_KINDS = [
  'body: none',
  'body: JSON object',
  'body: JSON value',
  'body: malformed JSON',
  'body: XML',
  'body: form',
  'body: octet-stream',
  'body: arbitrary content type',
  'id: real',
  'id: odd',
  'id: broken encoding',
  'query: none',
  'query: parameters',
  'query: broken encoding',
  'authorization: token',
  'authorization: odd',
] as const;
type ValueKind = (typeof VALUE_KINDS)[number];

/** `arbitrary`, its values labelled `kind`. */
function labelled<T>(kind: ValueKind, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<[ValueKind, T]> {
  return arbitrary.map((value): [ValueKind, T] => [kind, value]);
}

/** What the generators aim at: the values path parameters may take, field names, URLs of real resources. */
export interface FuzzTargets {
  /** Real ids for a path parameter, by the parameter's place (see `parameterKey`). */
  pathValues: (key: string) => string | undefined;
  fieldNames: string[];
  queryNames: string[];
  urls: string[];
  userIds: string[];
}

/** A path parameter named by the static segment before it: `assets/:id` -> `assets`, `*key` -> `files`. */
export function parameterKey(segments: string[], index: number): string {
  const before = segments[index - 1] ?? '';
  return before.startsWith(':') ? `${before.slice(1)}/${segments[index].slice(1)}` : before;
}

/** `:name` and `*name` segments of a route path. */
export function parameterIndexes(path: string): number[] {
  return path
    .split('/')
    .flatMap((segment, index) => (segment.startsWith(':') || segment.startsWith('*') ? [index] : []));
}

/** A path id: a real one, or one of the shapes that must never reach a query as such. */
function idArbitrary(real: string | undefined): fc.Arbitrary<[ValueKind, string]> {
  const odd = labelled(
    'id: odd',
    fc.oneof(
      fc.constantFrom(
        '0',
        '-1',
        '00001',
        '1e3',
        '0x1',
        '1.5',
        '99999999999999999999999',
        '2147483648',
        'NaN',
      ),
      fc.integer().map(String),
      text.filter((value) => value !== '' && value !== '.' && value !== '..'),
    ),
  );
  return real === undefined
    ? odd
    : fc.oneof(
        { weight: 3, arbitrary: labelled('id: real', fc.constant(real)) },
        { weight: 2, arbitrary: odd },
      );
}

function valueArbitrary(targets: FuzzTargets): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    { weight: 3, arbitrary: text },
    { weight: 2, arbitrary: oddNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 2, arbitrary: fc.constantFrom(...targets.urls, ...targets.userIds) },
  );
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom(...targets.fieldNames, 'id', 'url', 'value'), leaf, {
        maxKeys: 3,
      }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

function objectArbitrary(targets: FuzzTargets): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...targets.fieldNames) },
      { weight: 1, arbitrary: text },
    ),
    valueArbitrary(targets),
    { maxKeys: 6 },
  );
}

function xmlArbitrary(targets: FuzzTargets): fc.Arbitrary<string> {
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const element = fc
    .tuple(fc.constantFrom(...targets.fieldNames, 'createAsset', 'accessLevels', 'accessLevel', 'id'), text)
    .map(([name, value]) => `<${name}>${escape(value)}</${name}>`);
  const wellFormed = fc
    .tuple(fc.constantFrom('createAsset', 'asset', 'user', 'x'), fc.array(element, { maxLength: 5 }))
    .map(
      ([root, children]) => `<?xml version="1.0" encoding="UTF-8"?><${root}>${children.join('')}</${root}>`,
    );
  return fc.oneof(
    wellFormed,
    fc.constantFrom(
      '<createAsset><accessLevels>',
      '<a><b></a>',
      '<?xml?>',
      '<x>&undefined;</x>',
      ...ENTITY_XML,
    ),
  );
}

type Body = FuzzRequest['body'];

function bodyArbitrary(targets: FuzzTargets): fc.Arbitrary<[ValueKind, Body]> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((data) => JSON.stringify(data) ?? 'null');
  const typed = (contentType: fc.Arbitrary<string | undefined>, data: fc.Arbitrary<string | number[]>) =>
    fc
      .record({ contentType, data })
      .map(({ contentType: type, data: payload }) =>
        type === undefined ? { data: payload } : { contentType: type, data: payload },
      );
  const form = objectArbitrary(targets).map((fields) =>
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `${percentEncode(name)}=${percentEncode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))}`,
      )
      .join('&'),
  );
  return fc.oneof(
    { weight: 2, arbitrary: labelled('body: none', fc.constant(undefined)) },
    {
      weight: 5,
      arbitrary: labelled(
        'body: JSON object',
        typed(fc.constant('application/json'), json(objectArbitrary(targets))),
      ),
    },
    {
      weight: 2,
      arbitrary: labelled(
        'body: JSON value',
        typed(fc.constant('application/json'), json(valueArbitrary(targets))),
      ),
    },
    {
      weight: 2,
      arbitrary: labelled(
        'body: malformed JSON',
        typed(fc.constant('application/json'), fc.constantFrom(...MALFORMED_JSON)),
      ),
    },
    {
      weight: 2,
      arbitrary: labelled(
        'body: XML',
        typed(fc.constantFrom('application/xml', 'text/xml'), xmlArbitrary(targets)),
      ),
    },
    {
      weight: 1,
      arbitrary: labelled('body: form', typed(fc.constant('application/x-www-form-urlencoded'), form)),
    },
    {
      weight: 1,
      arbitrary: labelled(
        'body: octet-stream',
        typed(
          fc.constant('application/octet-stream'),
          fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: labelled(
        'body: arbitrary content type',
        typed(
          fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
          fc.oneof(json(objectArbitrary(targets)), xmlArbitrary(targets), text),
        ),
      ),
    },
  );
}

function queryArbitrary(targets: FuzzTargets): fc.Arbitrary<[ValueKind[], string]> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...targets.queryNames) },
    { weight: 1, arbitrary: fc.constantFrom(...targets.queryNames).map((query) => `${query}[]`) },
    { weight: 1, arbitrary: fc.constantFrom(...targets.queryNames).map((query) => `${query}[0]`) },
    { weight: 1, arbitrary: text },
  );
  const value = fc.oneof(
    {
      weight: 5,
      arbitrary: labelled(
        'query: parameters',
        fc
          .oneof(text, oddNumber.map(String), fc.constantFrom(...targets.userIds, ...targets.urls))
          .map(percentEncode),
      ),
    },
    { weight: 1, arbitrary: labelled('query: broken encoding', brokenEncoding) },
  );
  return fc
    .array(fc.tuple(name, value), { maxLength: 4 })
    .map((pairs): [ValueKind[], string] => [
      pairs.length === 0 ? ['query: none'] : pairs.map(([, [kind]]) => kind),
      pairs.map(([key, [, part]]) => `${percentEncode(key)}=${part}`).join('&'),
    ]);
}

function headersArbitrary(
  targets: FuzzTargets,
  token: string,
): fc.Arbitrary<[ValueKind, Record<string, string>]> {
  const odd = (values: string[]) => fc.oneof(fc.constantFrom(...values), text.map(headerValue));
  const optional = (name: string, values: string[]) =>
    fc.option(
      odd(values).map((value) => [name, value] as const),
      { nil: undefined },
    );
  const authorization = fc.oneof(
    { weight: 12, arbitrary: labelled('authorization: token', fc.constant(`Bearer ${token}`)) },
    {
      weight: 1,
      arbitrary: labelled(
        'authorization: odd',
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Basic Og==',
          `bearer ${token}x`,
          'Bearer \xe9\xe9',
          `Bearer ${token}, Bearer ${token}`,
        ),
      ),
    },
  );
  return fc
    .tuple(
      authorization,
      optional('Accept', [
        'application/json',
        'application/xml',
        'text/html',
        '*/*',
        'garbage',
        'application/json;q=0',
        'image/*',
      ]),
      optional('Accept-Language', ['fr', 'zz', '*', 'en-US,en;q=0.5', 'de;q=abc', '-', 'x'.repeat(300)]),
      optional('Content-Language', ['fr', 'zz', 'en', '']),
      optional('Content-Disposition', [
        'attachment; filename="a.txt"',
        'attachment',
        'inline',
        "attachment; filename*=UTF-8''%E2%82%AC.txt",
        'attachment; filename=""',
      ]),
      optional('Upload-As-New-Version', ['true', 'maybe', '']),
      optional('X-Copy-Temp-Chunked-File', targets.urls),
      optional('Range', ['bytes=0-', 'bytes=-1', 'bytes=abc', 'bytes=5-1', 'bytes=0-1,2-3']),
      optional('X-Request-Id', ['abc', '../x', 'a'.repeat(200)]),
      optional('Host', ['evil.example', 'localhost:99999', '[::1]']),
    )
    .map(([[kind, auth], ...rest]): [ValueKind, Record<string, string>] => {
      const headers: Record<string, string> = { authorization: auth };
      for (const entry of rest) if (entry !== undefined) headers[entry[0].toLowerCase()] = entry[1];
      return [kind, headers];
    });
}

/** Requests to one route: odd ids in its path, odd query parameters, headers and bodies. */
export function requestArbitrary(
  route: Route,
  targets: FuzzTargets,
  token: string,
): fc.Arbitrary<FuzzRequest> {
  const segments = route.path.split('/');
  const parameters = parameterIndexes(route.path).map((index) => {
    const real = targets.pathValues(parameterKey(segments, index));
    // A wildcard (`*key`) spans segments: its slashes stay slashes.
    const encode = segments[index].startsWith('*')
      ? (value: string) => value.split('/').map(percentEncode).join('/')
      : percentEncode;
    return fc
      .oneof(
        {
          weight: 8,
          arbitrary: idArbitrary(real).map(([kind, value]): [ValueKind, string] => [kind, encode(value)]),
        },
        { weight: 1, arbitrary: labelled('id: broken encoding', brokenEncoding) },
      )
      .map(([kind, value]) => [index, kind, value] as const);
  });
  return fc
    .record({
      parameters: fc.tuple(...parameters),
      query: queryArbitrary(targets),
      headers: headersArbitrary(targets, token),
      body: bodyArbitrary(targets),
    })
    .map(
      ({
        parameters: values,
        query: [queryKinds, query],
        headers: [authorization, headers],
        body: [bodyKind, body],
      }) => {
        const path = [...segments];
        for (const [index, , value] of values) path[index] = value;
        return {
          method: route.method.toUpperCase(),
          path: path.join('/'),
          query,
          headers,
          ...(body === undefined ? {} : { body }),
          kinds: [bodyKind, ...values.map(([, kind]) => kind), ...queryKinds, authorization],
        };
      },
    );
}

/** Sends a fuzzed request over plain HTTP, exactly as generated. */
export function sendFuzzRequest(t: TestApp, request: FuzzRequest): Promise<StreamedReply> {
  const headers = { ...request.headers };
  let body: Readable | undefined;
  if (request.body !== undefined) {
    const bytes =
      typeof request.body.data === 'string'
        ? Buffer.from(request.body.data, 'utf8')
        : Buffer.from(request.body.data);
    if (request.body.contentType !== undefined) headers['content-type'] = request.body.contentType;
    headers['content-length'] = String(bytes.length);
    body = Readable.from([bytes], { objectMode: false });
  }
  const url = `${t.baseUrl}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
  return streamRequest(request.method, url, { headers, body });
}
