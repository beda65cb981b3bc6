import { randomBytes } from 'node:crypto';
import { insertCategory } from './helpers/asset-permission-fixtures';
import { bearerRequests, pathOf } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { storedKeys } from './helpers/stored-keys';
import { TestApp, TestUser } from './helpers/test-app';

/**
 * Concurrent writers leave a state one of them wrote, never a mix (issue 8). Races covered elsewhere:
 * one lightbox name created 20 times at once (lightboxes spec), ten users checking one asset out
 * (checkout spec), 16 chunk PUTs to one temp file (temp-chunked-files spec), one asset added to a
 * lightbox concurrently (lightbox-contents spec).
 */
const WRITERS = 8;
const TITLE = 1;
const DESCRIPTION = 2;
const CATEGORIES = 10;

interface AssetBody {
  attributes: Array<{ id: string; value: string }>;
  parents: string[];
}

interface Version {
  version: number;
  current: boolean;
  fileSize: number;
  contentUrl: string;
}

describe('concurrent writers', () => {
  let t: TestApp;
  let level: number;
  let editor: TestUser;
  let numeric: number;
  const api = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    level = await grants.topLevel('Default');
    editor = await t.createUser();
    await grants.give(editor.id, [level], ['view', 'download', 'edit', 'upload']);
    const attribute = await api
      .post('/rest/attributes', t.adminToken, { label: 'Race number', typeId: 8 })
      .expect(201);
    numeric = attribute.body.id as number;
  });
  afterAll(() => t?.close());

  const valueOf = (body: AssetBody, id: number) =>
    body.attributes.find((entry) => entry.id === String(id))?.value;

  /** What writer `i` puts: every field it touches carries its number. */
  function stateOf(i: number, categories: number[], parents: string[]) {
    return {
      [TITLE]: `wrtr${i}zz title`,
      [DESCRIPTION]: `description by writer ${i}`,
      [numeric]: String(1000 + i),
      [CATEGORIES]: String(categories[i]),
      parents: [parents[i]],
    };
  }

  it("parallel PUTs on one asset end in exactly one writer's full state, search index included", async () => {
    const asset = await newAsset(level);
    const categories = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => insertCategory(t, `race-${i}`)),
    );
    const parents: string[] = [];
    for (let i = 0; i < WRITERS; i += 1) parents.push(`${t.baseUrl}${await newAsset(level)}`);
    const states = Array.from({ length: WRITERS }, (_, i) => stateOf(i, categories, parents));

    const responses = await Promise.all(
      states.map((state) =>
        api.put(asset, editor.token, {
          attributes: [TITLE, DESCRIPTION, numeric, CATEGORIES].map((id) => ({
            id: String(id),
            value: state[id],
          })),
          parents: state.parents,
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(WRITERS).fill(200));

    const final = (await api.get(asset, t.adminToken).expect(200)).body as AssetBody;
    const winner = states.findIndex((state) => state[TITLE] === valueOf(final, TITLE));
    expect(winner).toBeGreaterThanOrEqual(0);
    expect({
      [TITLE]: valueOf(final, TITLE),
      [DESCRIPTION]: valueOf(final, DESCRIPTION),
      [numeric]: valueOf(final, numeric),
      [CATEGORIES]: valueOf(final, CATEGORIES),
      parents: final.parents,
    }).toEqual(states[winner]);

    // The token index was written in the same transactions: only the winner's words find the asset.
    for (let i = 0; i < WRITERS; i += 1) {
      const found = await api.get(`/rest/asset-search?keywords=wrtr${i}zz`, t.adminToken).expect(200);
      const ids = (found.body as Array<{ id: number | string }>).map((summary) => String(summary.id));
      expect({ writer: i, found: ids }).toEqual({
        writer: i,
        found: i === winner ? [asset.split('/').pop()] : [],
      });
    }
  });

  async function versionsOf(asset: string): Promise<Version[]> {
    return (await api.get(`${asset}/versions`, t.adminToken).expect(200)).body as Version[];
  }

  async function bytesOf(contentUrl: string): Promise<Buffer> {
    const redirect = await api.get(pathOf(contentUrl), t.adminToken).redirects(0).expect(303);
    return (await fetchSigned(redirect.headers.location as string)).body;
  }

  /** Distinct bodies (distinct sizes too), plain text so no renditions are made. */
  const bodies = () =>
    Array.from({ length: WRITERS }, (_, i) =>
      Buffer.concat([Buffer.from(`writer ${i}\n`), randomBytes(4096 + i * 1000)]),
    );

  it('parallel new-version uploads each get their own version number: 1..N+1, one current, bytes exact', async () => {
    const asset = await newAsset(level);
    const first = Buffer.from('the first version');
    await upload(asset, editor.token, first, 'v1.txt').expect(200);
    const uploads = bodies();
    const responses = await Promise.all(
      uploads.map((body, i) =>
        upload(asset, editor.token, body, `v-${i}.txt`).set('Upload-As-New-Version', 'true'),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(WRITERS).fill(200));

    const versions = await versionsOf(asset);
    expect(versions.map((entry) => entry.version)).toEqual(
      Array.from({ length: WRITERS + 1 }, (_, i) => i + 1),
    );
    expect(versions.filter((entry) => entry.current).map((entry) => entry.version)).toEqual([WRITERS + 1]);
    const stored = await Promise.all(versions.map((entry) => bytesOf(entry.contentUrl)));
    expect(sha256(stored[0])).toBe(sha256(first));
    // Every upload is kept exactly once, byte for byte, and the reported sizes match the bytes.
    expect(stored.slice(1).map(sha256).sort()).toEqual(uploads.map(sha256).sort());
    expect(versions.map((entry) => entry.fileSize)).toEqual(stored.map((bytes) => bytes.length));
    const current = await bytesOf(`${t.baseUrl}${asset}/content`);
    expect(sha256(current)).toBe(sha256(stored[WRITERS]));
    expect(await storedKeys(t, `assets/${asset.split('/').pop()}/`)).toHaveLength(WRITERS + 1);
  });

  it('parallel replacing uploads leave one version holding exactly one of the bodies, and no orphan object', async () => {
    const asset = await newAsset(level);
    const uploads = bodies();
    const responses = await Promise.all(
      uploads.map((body, i) => upload(asset, editor.token, body, `r-${i}.txt`)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(WRITERS).fill(200));

    const versions = await versionsOf(asset);
    expect(versions.map(({ version, current }) => ({ version, current }))).toEqual([
      { version: 1, current: true },
    ]);
    const current = await bytesOf(`${t.baseUrl}${asset}/content`);
    expect(uploads.map(sha256)).toContain(sha256(current));
    expect(versions[0].fileSize).toBe(current.length);
    expect(await storedKeys(t, `assets/${asset.split('/').pop()}/`)).toHaveLength(1);
  });

  it('parallel renames of different lightboxes to one name: one 200, the rest 409, no duplicate', async () => {
    const owner = await t.createUser();
    const lightboxes = `/rest/users/${owner.id}/lightboxes`;
    const paths: string[] = [];
    for (let i = 0; i < WRITERS; i += 1) {
      const created = await api.post(lightboxes, owner.token, { name: `box ${i}` }).expect(201);
      paths.push(pathOf(created.headers.location as string));
    }
    const responses = await Promise.all(
      paths.map((path) => api.post(path, owner.token, { name: 'Same name' })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([
      200,
      ...Array<number>(WRITERS - 1).fill(409),
    ]);
    for (const loser of responses.filter((response) => response.status === 409)) {
      expect(loser.text).toBe('a lightbox named Same name already exists for the user');
    }
    const names = ((await api.get(lightboxes, owner.token).expect(200)).body as Array<{ name: string }>).map(
      (lightbox) => lightbox.name,
    );
    expect(names.filter((name) => name === 'Same name')).toHaveLength(1);
    expect(names).toHaveLength(WRITERS);
  });
});
