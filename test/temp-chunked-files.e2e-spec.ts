import { TempChunkedFilesService } from '@dam/temp-chunked-files';
import { RequestContext } from '@dam/core';
import { createHash, randomBytes } from 'node:crypto';
import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { pseudoRandomBlocks, pseudoRandomStream, streamRequest } from './helpers/raw-http';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';

jest.setTimeout(180_000);

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MiB = 1024 * 1024;

function sha256(...parts: Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

describe('temp chunked files', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;
  const http = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    [owner, stranger, admin] = [
      await t.createUser(),
      await t.createUser(),
      await t.createUser({ admin: true }),
    ];
  });
  afterAll(() => t?.close());

  async function createFile(token = owner.token): Promise<{ path: string; id: string; url: string }> {
    const response = await http.post('/rest/temp-chunked-files', token, {}).expect(201);
    return {
      path: pathOf(response.headers.location as string),
      id: response.body.id,
      url: response.body.url,
    };
  }

  function putChunk(path: string, index: number | string, data: Buffer, token = owner.token) {
    return t.http
      .put(`${path}/${index}`)
      .auth(token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .send(data);
  }

  async function readFile(
    path: string,
    token = owner.token,
  ): Promise<{ status: number; body: Buffer; length: string }> {
    const response = await t.http
      .get(path)
      .auth(token, { type: 'bearer' })
      .buffer(true)
      .parse((res, callback) => {
        const parts: Buffer[] = [];
        res.on('data', (data: Buffer) => parts.push(data));
        res.on('end', () => callback(null, Buffer.concat(parts)));
      });
    return {
      status: response.status,
      body: response.body as Buffer,
      length: response.headers['content-length'],
    };
  }

  const keysOf = (id: string): Promise<string[]> => storedKeys(t, `temp/${id}/`);

  it('POST creates an empty file: 201, Location with a random UUID, {url, id}', async () => {
    const response = await http.post('/rest/temp-chunked-files', owner.token, {}).expect(201);
    const location = response.headers.location as string;
    expect(location).toMatch(new RegExp(`^${t.baseUrl}/rest/temp-chunked-files/[0-9a-f-]{36}$`));
    expect(response.body).toEqual({ url: location, id: location.split('/').pop() });
    expect(response.body.id).toMatch(UUID_V4);
    const empty = await readFile(pathOf(location));
    expect(empty).toMatchObject({ status: 200, length: '0' });
    expect(empty.body.length).toBe(0);
  });

  it('the root resource links the collection and the signing endpoint', async () => {
    const root = await http.get('/rest', owner.token).expect(200);
    expect(root.body.api_version_1_3.tempChunkedFilesUrl).toBe(`${t.baseUrl}/rest/temp-chunked-files`);
    expect(root.body.api_version_1_3.signingUrl).toBe(`${t.baseUrl}/rest/sign-url`);
  });

  it('assembles uneven chunks sent out of order, byte-exact, in index order', async () => {
    const file = await createFile();
    const chunks = [randomBytes(70_001), randomBytes(1), randomBytes(333_333), randomBytes(12_345)];
    for (const index of [2, 0, 3, 1]) {
      const response = await putChunk(file.path, index, chunks[index]).expect(200);
      expect(response.body).toEqual({ index, size: chunks[index].length });
    }
    const read = await readFile(file.path);
    expect(read.status).toBe(200);
    expect(read.length).toBe(String(chunks.reduce((sum, chunk) => sum + chunk.length, 0)));
    expect(sha256(read.body)).toBe(sha256(...chunks));
  });

  it('GET serves only the chunks present (gaps skipped) as application/octet-stream; HEAD gives the length only', async () => {
    const file = await createFile();
    const [a, c] = [randomBytes(100), randomBytes(50)];
    await putChunk(file.path, 7, c).expect(200);
    await putChunk(file.path, 3, a).expect(200);
    const response = await t.http.get(file.path).auth(owner.token, { type: 'bearer' }).buffer(true);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(sha256(response.body as Buffer)).toBe(sha256(a, c));
    const head = await t.http.head(file.path).auth(owner.token, { type: 'bearer' }).expect(200);
    expect(head.headers['content-length']).toBe('150');
  });

  it('re-sending an index replaces that chunk and deletes the replaced object', async () => {
    const file = await createFile();
    await putChunk(file.path, 0, Buffer.from('first version of chunk 0')).expect(200);
    await putChunk(file.path, 1, Buffer.from('|chunk 1')).expect(200);
    await putChunk(file.path, 0, Buffer.from('v2')).expect(200);
    expect((await readFile(file.path)).body.toString()).toBe('v2|chunk 1');
    const keys = await keysOf(file.id);
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => /^temp\/[0-9a-f-]{36}\/\d+-[0-9a-f]+$/.test(key))).toBe(true);
  });

  it('keeps a consistent state under 16 parallel PUTs (12 indexes, 4 racing on one): no orphan objects', async () => {
    const file = await createFile();
    const distinct = Array.from({ length: 12 }, (_, index) => randomBytes(20_000 + index * 997));
    const racing = Array.from({ length: 4 }, () => randomBytes(15_000));
    const responses = await Promise.all([
      ...distinct.map((data, index) => putChunk(file.path, index, data)),
      ...racing.map((data) => putChunk(file.path, 12, data)),
    ]);
    expect(responses.map((response) => response.status)).toEqual(Array(16).fill(200));
    const read = await readFile(file.path);
    const prefix = Buffer.concat(distinct);
    expect(sha256(read.body.subarray(0, prefix.length))).toBe(sha256(prefix));
    const last = read.body.subarray(prefix.length);
    expect(racing.some((data) => data.equals(last))).toBe(true);
    expect(await keysOf(file.id)).toHaveLength(13);
  });

  it('takes any content type except those the JSON/form/XML parsers consume (415)', async () => {
    const file = await createFile();
    await t.http
      .put(`${file.path}/0`)
      .auth(owner.token, { type: 'bearer' })
      .set('Content-Type', 'text/plain')
      .send('plain bytes')
      .expect(200);
    const json = await t.http
      .put(`${file.path}/1`)
      .auth(owner.token, { type: 'bearer' })
      .set('Content-Type', 'application/json')
      .send('{"a":1}')
      .expect(415);
    expect(json.headers['content-type']).toMatch(/^text\/plain/);
    expect(json.text).toMatch(/application\/octet-stream/);
    await t.http
      .put(`${file.path}/1`)
      .auth(owner.token, { type: 'bearer' })
      .type('form')
      .send({ a: 'b' })
      .expect(415);
    expect((await readFile(file.path)).body.toString()).toBe('plain bytes');
  });

  it('refuses bad chunk numbers (400) and unknown or malformed ids (404)', async () => {
    const file = await createFile();
    for (const index of ['100000', '-1', 'abc', '1.5', '0x1']) {
      const response = await putChunk(file.path, index, Buffer.from('x')).expect(400);
      expect(response.text).toBe('the chunk number must be a whole number from 0 to 99999');
    }
    await putChunk(file.path, 99_999, Buffer.from('x')).expect(200);
    const unknown = '/rest/temp-chunked-files/0b6c4e4a-8d1e-4c5b-9a6f-3b2a1c0d9e8f';
    expect((await putChunk(unknown, 0, Buffer.from('x')).expect(404)).text).toMatch(/does not exist/);
    await http.get(unknown, owner.token).expect(404);
    await http.get('/rest/temp-chunked-files/not-a-uuid', owner.token).expect(404);
    await http.delete('/rest/temp-chunked-files/12', owner.token).expect(404);
  });

  describe('who may use a file', () => {
    it('another user gets 404 on every route, as if it did not exist', async () => {
      const file = await createFile();
      await putChunk(file.path, 0, Buffer.from('mine')).expect(200);
      await putChunk(file.path, 1, Buffer.from('theirs'), stranger.token).expect(404);
      await http.get(file.path, stranger.token).expect(404);
      await http.delete(file.path, stranger.token).expect(404);
      expect((await readFile(file.path)).body.toString()).toBe('mine');
    });

    it('a non-admin acting as another user (?userId) is refused: 403 on every route', async () => {
      const file = await createFile();
      const asOwner = `?userId=${owner.id}`;
      await http.post(`/rest/temp-chunked-files${asOwner}`, stranger.token, {}).expect(403);
      await putChunk(`${file.path}`, `0${asOwner}`, Buffer.from('x'), stranger.token).expect(403);
      await http.get(`${file.path}${asOwner}`, stranger.token).expect(403);
      await http.delete(`${file.path}${asOwner}`, stranger.token).expect(403);
    });

    it("admins and the application user may use anyone's file; an admin acting as another user may not", async () => {
      const file = await createFile();
      await putChunk(file.path, 0, Buffer.from('a'), admin.token).expect(200);
      await putChunk(file.path, 1, Buffer.from('b'), t.adminToken).expect(200);
      expect((await readFile(file.path, admin.token)).body.toString()).toBe('ab');
      await http.get(`${file.path}?userId=${stranger.id}`, admin.token).expect(404);
      await http.get(`${file.path}?userId=${owner.id}`, admin.token).expect(200);
    });
  });

  it('DELETE answers 204 and removes every chunk object and row', async () => {
    const file = await createFile();
    for (const index of [0, 1, 2]) await putChunk(file.path, index, randomBytes(1000)).expect(200);
    expect(await keysOf(file.id)).toHaveLength(3);
    await http.delete(file.path, owner.token).expect(204);
    expect(await keysOf(file.id)).toEqual([]);
    await http.get(file.path, owner.token).expect(404);
    await putChunk(file.path, 0, Buffer.from('late')).expect(404);
    await http.delete(file.path, owner.token).expect(404);
    expect(await keysOf(file.id)).toEqual([]);
  });

  itRefusesRequestsWithoutAToken(
    () => t,
    [
      ['POST', '/rest/temp-chunked-files'],
      ['PUT', '/rest/temp-chunked-files/0b6c4e4a-8d1e-4c5b-9a6f-3b2a1c0d9e8f/0'],
      ['GET', '/rest/temp-chunked-files/0b6c4e4a-8d1e-4c5b-9a6f-3b2a1c0d9e8f'],
      ['DELETE', '/rest/temp-chunked-files/0b6c4e4a-8d1e-4c5b-9a6f-3b2a1c0d9e8f'],
    ],
  );

  describe('for content uploads (service API)', () => {
    it('chunkKeysOrThrow gives the storage keys in index order to the owner, 400 to others', async () => {
      const service = t.app.get(TempChunkedFilesService);
      const file = await createFile();
      for (const index of [5, 1, 3]) await putChunk(file.path, index, Buffer.from(`#${index}`)).expect(200);
      const actor = { id: owner.id, username: owner.username, isAdmin: false, isApplication: false };
      const keys = await service.chunkKeysOrThrow(actor, file.id);
      expect(keys.map((key) => Number(key.split('/')[2].split('-')[0]))).toEqual([1, 3, 5]);
      const other = { ...actor, id: stranger.id };
      await expect(service.chunkKeysOrThrow(other, file.id)).rejects.toMatchObject({ kind: 'invalid-input' });
      await expect(service.chunkKeysOrThrow(actor, 'nope')).rejects.toMatchObject({ kind: 'invalid-input' });
      const context = {
        requestId: 'test',
        origin: t.baseUrl,
        acceptLanguages: [],
        contentLanguage: undefined,
      };
      const parse = (url: unknown): string =>
        RequestContext.run(context, () => service.parseUrlOrThrow(url, 'X-Copy-Temp-Chunked-File'));
      expect(parse(file.url)).toBe(file.id);
      for (const bad of [`${t.baseUrl}/rest/assets/1`, `${file.url}/0`, 'x', 42]) {
        expect(() => parse(bad)).toThrow(/is not a temp chunked file URL/);
      }
      expect(() => parse(`http://elsewhere.invalid/rest/temp-chunked-files/${file.id}`)).toThrow(
        `X-Copy-Temp-Chunked-File: http://elsewhere.invalid/rest/temp-chunked-files/${file.id} is not a URL of this service`,
      );
    });
  });

  it('round-trips 64 MB in uneven chunks byte-exact, streamed both ways', async () => {
    const file = await createFile();
    const sizes = [9 * MiB + 1, 17 * MiB - 3, 1, 5 * MiB + 777, 21 * MiB, 12 * MiB - 775];
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThanOrEqual(64 * MiB);
    const started = Date.now();
    for (const index of [3, 0, 5, 1, 4, 2]) {
      const reply = await streamRequest('PUT', `${t.baseUrl}${file.path}/${index}`, {
        token: owner.token,
        body: pseudoRandomStream(file.id, index, sizes[index]),
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(sizes[index]) },
      });
      expect(reply.status).toBe(200);
    }
    const uploaded = Date.now();
    const read = await streamRequest('GET', `${t.baseUrl}${file.path}`, { token: owner.token });
    const downloaded = Date.now();
    const expected = createHash('sha256');
    sizes.forEach((size, index) => {
      for (const block of pseudoRandomBlocks(file.id, index, size)) expected.update(block);
    });
    expect(read).toMatchObject({ status: 200, size: total, sha256: expected.digest('hex') });
    expect(read.headers['content-length']).toBe(String(total));
    process.stdout.write(
      `64 MB chunked round trip: upload ${uploaded - started} ms, download ${downloaded - uploaded} ms\n`,
    );
  });
});

describe('temp chunked files: chunk size limit', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_MAX_CHUNK_BYTES: '1024' } });
    user = await t.createUser();
  });
  afterAll(() => t?.close());

  it('answers 413 beyond DAM_MAX_CHUNK_BYTES, declared or streamed, and keeps neither row nor object', async () => {
    const created = await t.http
      .post('/rest/temp-chunked-files')
      .auth(user.token, { type: 'bearer' })
      .expect(201);
    const { id } = created.body as { id: string };
    const chunkUrl = `${t.baseUrl}/rest/temp-chunked-files/${id}/0`;
    const exact = await streamRequest('PUT', chunkUrl, {
      token: user.token,
      body: pseudoRandomStream('limit', 0, 1024),
      headers: { 'content-type': 'application/octet-stream', 'content-length': '1024' },
    });
    expect(exact.status).toBe(200);
    const declared = await streamRequest('PUT', `${chunkUrl.slice(0, -1)}1`, {
      token: user.token,
      body: pseudoRandomStream('limit', 1, 1025),
      headers: { 'content-type': 'application/octet-stream', 'content-length': '1025' },
    });
    expect(declared).toMatchObject({ status: 413, text: 'a chunk may hold at most 1024 bytes' });
    // No Content-Length (chunked transfer encoding): refused while streaming.
    const streamed = await streamRequest('PUT', `${chunkUrl.slice(0, -1)}2`, {
      token: user.token,
      body: pseudoRandomStream('limit', 2, 200_000),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(streamed).toMatchObject({ status: 413, text: 'a chunk may hold at most 1024 bytes' });
    expect(await storedKeys(t, `temp/${id}/`)).toHaveLength(1);
    const read = await streamRequest('GET', `${t.baseUrl}/rest/temp-chunked-files/${id}`, {
      token: user.token,
    });
    expect(read).toMatchObject({ status: 200, size: 1024 });
  });
});
