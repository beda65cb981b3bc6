import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { MATRIX } from './helpers/databases';
import { TestApp } from './helpers/test-app';

/**
 * GET /rest/assets/{id} answers a kept representation (its JSON text and ETag made once) while the asset,
 * the attribute catalogue, the uploader's name and the origin stand: whatever of them changes shows in the
 * next answer, with a new tag.
 */
describe(`GET /rest/assets/{id} reuses its answer only while nothing it shows changed (${MATRIX})`, () => {
  let t: TestApp;
  let assetPath: string;
  let attributeId: string;
  const api = bearerRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const attribute = await api
      .post('/rest/attributes', t.adminToken, { label: 'Reused label', typeId: 1 })
      .expect(201);
    attributeId = String(attribute.body.id);
    const created = await api.post('/rest/assets', t.adminToken, { accessLevels: [{ id: 1 }] }).expect(201);
    assetPath = pathOf(created.body.url as string);
  });
  afterAll(async () => {
    await t?.close();
  });

  const read = (headers: Record<string, string> = {}) => {
    const request = api.get(assetPath, t.adminToken);
    for (const [name, value] of Object.entries(headers)) request.set(name, value);
    return request.expect(200);
  };
  const attributeOf = (body: { attributes: Array<{ id: string; name: string; value: string }> }) =>
    body.attributes.find((attribute) => attribute.id === attributeId);

  it('answers the same bytes and tag while nothing changed, and 304 to that tag', async () => {
    const first = await read();
    const second = await read();
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    await api
      .get(assetPath, t.adminToken)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });

  it('shows a new value of the asset, with a new tag', async () => {
    const before = await read();
    await api
      .put(assetPath, t.adminToken, { attributes: [{ id: attributeId, value: 'first value' }] })
      .expect(200);
    const after = await read();
    expect(attributeOf(after.body)?.value).toBe('first value');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('shows a renamed attribute (the catalogue changed, not the asset), with a new tag', async () => {
    const before = await read();
    await api.put(`/rest/attributes/${attributeId}`, t.adminToken, { label: 'Renamed label' }).expect(200);
    const after = await read();
    expect(attributeOf(before.body)?.name).toBe('Reused label');
    expect(attributeOf(after.body)?.name).toBe('Renamed label');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('answers each origin its own URLs, and XML its own tag, between JSON answers', async () => {
    const json = await read();
    const otherOrigin = await read({ Host: 'localhost:8080' });
    expect(otherOrigin.body.url).toBe(`http://localhost:8080${assetPath}`);
    const xml = await read({ Accept: 'application/xml' });
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.text).toContain(`<url>${json.body.url as string}</url>`);
    expect(xml.headers.etag).not.toBe(json.headers.etag);
    const again = await read();
    expect(again.text).toBe(json.text);
    expect(again.headers.etag).toBe(json.headers.etag);
  });
});
