import { ObjectStorage } from '@dam/storage';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { Created, useAccessLevelsApp } from './helpers/access-level-requests';
import { itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestUser } from './helpers/test-app';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('access level images', () => {
  const { app, http, api } = useAccessLevelsApp();
  let level: Created;
  let viewer: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    level = await api.createLevel('With image');
    [viewer, stranger] = await Promise.all([app().createUser(), app().createUser()]);
    await api.joinGroups(viewer, [await api.createGroup('Image viewers', { [level.url]: ['view'] })]);
  });

  const imagePath = (of: Created = level) => `${pathOf(of.url)}/image`;
  const upload = (body: Buffer, token = app().adminToken, of: Created = level) =>
    app()
      .http.put(imagePath(of))
      .auth(token, { type: 'bearer' })
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Disposition', 'attachment; filename="logo.png"')
      .send(body);
  const imageKey = async (of: Created = level): Promise<string | null> => {
    const rows: Array<{ image_key: string | null }> = await app()
      .app.get(DataSource)
      .query('SELECT image_key FROM access_levels WHERE id = ?', [of.id]);
    return rows[0].image_key;
  };

  itRefusesRequestsWithoutAToken(app, [
    ['GET', '/rest/access-levels/1/image'],
    ['PUT', '/rest/access-levels/1/image'],
    ['DELETE', '/rest/access-levels/1/image'],
  ]);

  it('is 204 while the level has no image', async () => {
    const response = await http.get(imagePath(), app().adminToken).expect(204);
    expect(response.text).toBe('');
  });

  it('stores an image (200) and answers GET with 303 to a URL serving it', async () => {
    await upload(PNG).expect(200);
    const response = await http.get(imagePath(), app().adminToken).expect(303);
    const served = await fetch(response.headers.location as string);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(served.headers.get('content-disposition')).toContain('logo.png');
    expect(await imageKey()).toMatch(new RegExp(`^access-level-images/${level.id}/[0-9a-f-]{36}$`));
  });

  it('replaces the image and deletes the replaced object', async () => {
    await upload(PNG).expect(200);
    const before = await imageKey();
    await upload(Buffer.concat([PNG, Buffer.from('more')])).expect(200);
    const after = await imageKey();
    expect(after).not.toBe(before);
    const storage = app().app.get(ObjectStorage);
    expect(await storage.stat(before ?? '')).toBeUndefined();
    expect((await storage.stat(after ?? ''))?.size).toBe(PNG.length + 4);
  });

  it('DELETE removes the image (204), then GET is 204', async () => {
    await upload(PNG).expect(200);
    const key = await imageKey();
    await http.delete(imagePath(), app().adminToken).expect(204);
    await http.get(imagePath(), app().adminToken).expect(204);
    expect(
      await app()
        .app.get(ObjectStorage)
        .stat(key ?? ''),
    ).toBeUndefined();
    await http.delete(imagePath(), app().adminToken).expect(204);
  });

  it('lets a user who may view the level follow the image; others get 404', async () => {
    await upload(PNG).expect(200);
    await http.get(imagePath(), viewer.token).expect(303);
    const response = await http.get(imagePath(), stranger.token).expect(404);
    expect(response.text).toBe(`access level ${level.id} does not exist`);
  });

  it('refuses writes by a user who is not an administrator (403)', async () => {
    const put = await upload(PNG, viewer.token).expect(403);
    expect(put.text).toBe('only administrators may change access levels');
    await http.delete(imagePath(), viewer.token).expect(403);
  });

  it('is 404 for an unknown level', async () => {
    const unknown = { id: 99999, url: `${app().baseUrl}/rest/access-levels/99999` };
    await http.get(imagePath(unknown), app().adminToken).expect(404);
    await upload(PNG, app().adminToken, unknown).expect(404);
    await http.delete(imagePath(unknown), app().adminToken).expect(404);
  });

  it.each([
    ['image/png', 'attachment; filename=logo.png', 415],
    ['application/json', 'attachment; filename=logo.png', 415],
    ['application/octet-stream', undefined, 400],
    ['application/octet-stream', 'attachment', 400],
    ['application/octet-stream', 'inline; filename=logo.png', 400],
    ['application/octet-stream', 'attachment; filename=""', 400],
  ])('refuses Content-Type %s with Content-Disposition %s: %i', async (type, disposition, status) => {
    const request = app()
      .http.put(imagePath())
      .auth(app().adminToken, { type: 'bearer' })
      .set('Content-Type', type);
    if (disposition !== undefined) request.set('Content-Disposition', disposition);
    const response = await request.send(type === 'application/json' ? '{}' : PNG).expect(status);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('refuses an announced size above 50 MB at once (413)', async () => {
    const status = await rawPut(app().baseUrl + imagePath(), app().adminToken, 1024, {
      'Content-Length': String(51 * 1024 * 1024),
    });
    expect(status.statusCode).toBe(413);
  });

  it('refuses a streamed body that grows past 50 MB (413) and keeps the previous image', async () => {
    await upload(PNG).expect(200);
    const before = await imageKey();
    const result = await rawPut(app().baseUrl + imagePath(), app().adminToken, 51 * 1024 * 1024, {});
    expect(result.statusCode).toBe(413);
    expect(result.body).toBe('an access level image may be at most 50 MB');
    expect(await imageKey()).toBe(before);
  });
});

/**
 * A PUT written chunk by chunk (no Content-Length unless given), for bodies too large to build in
 * memory; resolves with the response once the server answered. `bytes` may fall short of a given
 * Content-Length, to show the server refusing before it reads.
 */
function rawPut(
  url: string,
  token: string,
  bytes: number,
  headers: Record<string, string>,
): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'PUT',
      agent: false, // a connection of its own: a refused body may be left unread on it
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename=big.png',
        ...headers,
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const write = (): void => {
      while (sent < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += part.length;
        if (!request.write(part)) {
          request.once('drain', write);
          return;
        }
      }
      request.end();
    };
    write();
  });
}
