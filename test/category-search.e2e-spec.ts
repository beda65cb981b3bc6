import { insertAssets } from './helpers/fixtures';
import { defaultAccessLevelId, grantPermissions, insertTopAccessLevel } from './helpers/permission-fixtures';
import { TestApp, TestUser } from './helpers/test-app';

interface SearchNode {
  id: number;
  name: string;
  description: string | null;
  parent?: string;
  children: SearchNode[];
  count?: number;
}

describe('category search', () => {
  let t: TestApp;
  let viewer: TestUser;
  let uploader: TestUser;
  let approver: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  // top -> (middle -> leaf), other; each id below
  let top: number;
  let middle: number;
  let leaf: number;
  let other: number;

  const bearer = { type: 'bearer' } as const;
  const search = (query = '', token = t.adminToken) =>
    t.http.get(`/rest/category-search${query}`).auth(token, bearer);
  const categoryUrl = (id: number) => `${t.baseUrl}/rest/categories/${id}`;

  async function create(name: string, parent?: number, description?: string): Promise<number> {
    const body = { name, description, parent: parent === undefined ? undefined : categoryUrl(parent) };
    const response = await t.http.post('/rest/categories').auth(t.adminToken, bearer).send(body).expect(201);
    return response.body.id as number;
  }

  /** id -> count over the whole returned forest. */
  function countsOf(forest: SearchNode[]): Record<number, number | undefined> {
    const counts: Record<number, number | undefined> = {};
    const visit = (node: SearchNode) => {
      counts[node.id] = node.count;
      node.children.forEach(visit);
    };
    forest.forEach(visit);
    return counts;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    [viewer, uploader, approver, outsider, admin] = await Promise.all([
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser(),
      t.createUser({ admin: true }),
    ]);
    top = await create('Top', undefined, 'the top');
    middle = await create('Middle', top);
    leaf = await create('Leaf', middle);
    other = await create('Other');

    const level = await defaultAccessLevelId(t);
    const hidden = await insertTopAccessLevel(t, 'Hidden');
    await grantPermissions(t, viewer.id, level, ['view']);
    await grantPermissions(t, uploader.id, level, ['view', 'upload']);
    await grantPermissions(t, approver.id, level, ['view', 'approve']);
    await insertAssets(t, [
      { accessLevelIds: [level], categoryIds: [top] }, // live: everyone with view
      { accessLevelIds: [level], categoryIds: [top], submitted: false, addedByUserId: uploader.id },
      { accessLevelIds: [level], categoryIds: [top], uploadPending: true, addedByUserId: uploader.id },
      { accessLevelIds: [hidden], categoryIds: [top] }, // nobody but admins may view Hidden
      { accessLevelIds: [level], categoryIds: [leaf, other] },
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is 401 without a token', async () => {
    await t.http.get('/rest/category-search').expect(401);
  });

  it('is 403 for a non-admin acting as someone else', async () => {
    const response = await search(`?userId=${uploader.id}`, viewer.token).expect(403);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('returns every top-level category with its descendants, in the shape of spec 2.3', async () => {
    const response = await search('', viewer.token).expect(200);
    expect(response.body).toEqual([
      {
        id: top,
        name: 'Top',
        description: 'the top',
        children: [
          {
            id: middle,
            name: 'Middle',
            description: null,
            parent: categoryUrl(top),
            children: [
              { id: leaf, name: 'Leaf', description: null, parent: categoryUrl(middle), children: [] },
            ],
          },
        ],
      },
      { id: other, name: 'Other', description: null, children: [] },
    ]);
  });

  it('with parentId returns that category (with its parent) and its descendants', async () => {
    const response = await search(`?parentId=${middle}`).expect(200);
    expect(response.body).toEqual([
      {
        id: middle,
        name: 'Middle',
        description: null,
        parent: categoryUrl(top),
        children: [{ id: leaf, name: 'Leaf', description: null, parent: categoryUrl(middle), children: [] }],
      },
    ]);
    expect((await search(`?parentId=${top}`).expect(200)).body[0]).not.toHaveProperty('parent');
  });

  it.each(['999999', '0', '-4'])('is 404 for parentId=%s, which names no category', async (parentId) => {
    const response = await search(`?parentId=${parentId}`).expect(404);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it.each([
    ['parentId=abc'],
    ['parentId=1.5'],
    ['parentId=99999999999'],
    ['parentId=1&parentId=2'],
    ['count=yes'],
    ['count=1'],
    ['count=true&count=false'],
  ])('is 400 for %s', async (query) => {
    const response = await search(`?${query}`).expect(400);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('carries no count unless count=true', async () => {
    for (const query of ['', '?count=false']) {
      expect(Object.values(countsOf((await search(query).expect(200)).body))).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
  });

  it('counts the assets directly in each category that the acting user may see', async () => {
    const expected: Array<[string, string, Record<number, number>]> = [
      ['application user', t.adminToken, { [top]: 4, [middle]: 0, [leaf]: 1, [other]: 1 }],
      ['admin user', admin.token, { [top]: 4, [middle]: 0, [leaf]: 1, [other]: 1 }],
      ['viewer', viewer.token, { [top]: 1, [middle]: 0, [leaf]: 1, [other]: 1 }],
      [
        'uploader (their own unsubmitted and pending ones)',
        uploader.token,
        { [top]: 3, [middle]: 0, [leaf]: 1, [other]: 1 },
      ],
      [
        'approver (unsubmitted and pending ones too)',
        approver.token,
        { [top]: 3, [middle]: 0, [leaf]: 1, [other]: 1 },
      ],
      ['user without permissions', outsider.token, { [top]: 0, [middle]: 0, [leaf]: 0, [other]: 0 }],
    ];
    for (const [who, token, counts] of expected) {
      const response = await search('?count=true', token).expect(200);
      expect([who, countsOf(response.body)]).toEqual([who, counts]);
    }
  });

  it('with userId counts what that user may see', async () => {
    const asViewer = await search(`?count=true&userId=${viewer.id}`).expect(200);
    expect(countsOf(asViewer.body)).toEqual({ [top]: 1, [middle]: 0, [leaf]: 1, [other]: 1 });
    const asUploader = await search(`?count=TRUE&userId=${uploader.id}`, admin.token).expect(200);
    expect(countsOf(asUploader.body)[top]).toBe(3);
    const asOutsider = await search(`?count=true&userId=${outsider.id}`).expect(200);
    expect(countsOf(asOutsider.body)[top]).toBe(0);
    const self = await search(`?count=true&userId=${viewer.id}`, viewer.token).expect(200);
    expect(countsOf(self.body)[top]).toBe(1);
  });

  it('counts within a parentId search', async () => {
    const response = await search(`?parentId=${middle}&count=true&userId=${viewer.id}`).expect(200);
    expect(countsOf(response.body)).toEqual({ [middle]: 0, [leaf]: 1 });
  });

  it('shows every category to every user, whatever they may see of the assets', async () => {
    const response = await search('', outsider.token).expect(200);
    expect(Object.keys(countsOf(response.body)).map(Number).sort()).toEqual(
      [top, middle, leaf, other].sort(),
    );
  });
});
