import { accessLevelRequests, Created } from './helpers/access-level-requests';
import { bearerRequests, itRefusesRequestsWithoutAToken } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { TestApp, TestUser } from './helpers/test-app';

interface SearchNode {
  id: string;
  name: string;
  parent?: string;
  children?: SearchNode[];
  count?: number;
}

/**
 * The tree used throughout (Default, seeded, is level 1):
 *   News ─┬─ Sport (inherits) ── Football (inherits)
 *         └─ Politics (own permissions) ── Elections (inherits)
 *   Archive ── Old (own permissions)
 * Viewer holds view on News and on Old; Approver holds view+approve on News.
 */
describe('access level search', () => {
  let t: TestApp;
  let viewer: TestUser;
  let approver: TestUser;
  let uploader: TestUser;
  let news: Created, sport: Created, football: Created, politics: Created, elections: Created;
  let archive: Created, old: Created;
  const app = () => t;
  const http = bearerRequests(app);
  const api = accessLevelRequests(app);
  const search = (query: string, token = t.adminToken) =>
    http.get(`/rest/access-level-search${query}`, token);
  const ids = (nodes: SearchNode[]): unknown =>
    nodes.map((node) => (node.children === undefined ? node.id : { [node.id]: ids(node.children) }));
  const find = (nodes: SearchNode[], id: number): SearchNode | undefined => {
    for (const node of nodes) {
      if (node.id === String(id)) return node;
      const below = find(node.children ?? [], id);
      if (below !== undefined) return below;
    }
    return undefined;
  };

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_LANGUAGES: 'en,fr' } });
    [viewer, approver, uploader] = await Promise.all([t.createUser(), t.createUser(), t.createUser()]);
    news = await api.createLevel('News');
    sport = await api.createLevel('Sport', { parent: news.url });
    football = await api.createLevel('Football', { parent: sport.url });
    politics = await api.createLevel('Politics', { parent: news.url, hasPermissions: true });
    elections = await api.createLevel('Elections', { parent: politics.url });
    archive = await api.createLevel('Archive');
    old = await api.createLevel('Old', { parent: archive.url, hasPermissions: true });
    await api.joinGroups(viewer, [
      await api.createGroup('Viewers', { [news.url]: ['view'], [old.url]: ['view'] }),
    ]);
    await api.joinGroups(approver, [await api.createGroup('Approvers', { [news.url]: ['view', 'approve'] })]);
    await api.joinGroups(uploader, [await api.createGroup('Uploaders', { [news.url]: ['view', 'upload'] })]);
    await insertAssets(t, [
      { accessLevelIds: [news.id] },
      { accessLevelIds: [news.id] },
      { accessLevelIds: [news.id, sport.id] },
      { accessLevelIds: [sport.id], submitted: false, addedByUserId: uploader.id },
      { accessLevelIds: [sport.id], uploadPending: true, addedByUserId: uploader.id },
      { accessLevelIds: [football.id] },
      { accessLevelIds: [politics.id] },
      { accessLevelIds: [old.id] },
    ]);
  });

  afterAll(async () => {
    await t?.close();
  });

  itRefusesRequestsWithoutAToken(app, [['GET', '/rest/access-level-search']]);

  it('is 403 when a user who is not an admin searches as someone else', async () => {
    const response = await search(`?userId=${approver.id}`, viewer.token).expect(403);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });

  describe('the tree', () => {
    it('gives an admin every level, as nodes with string ids', async () => {
      const response = await search('').expect(200);
      expect(ids(response.body)).toEqual([
        '1',
        { [news.id]: [{ [sport.id]: [String(football.id)] }, { [politics.id]: [String(elections.id)] }] },
        { [archive.id]: [String(old.id)] },
      ]);
    });

    it('shows parent only on non-root nodes, children only when there are some, no count unless asked', async () => {
      const response = await search('').expect(200);
      const body = response.body as SearchNode[];
      expect(body[1]).toEqual({ id: String(news.id), name: 'News', children: expect.any(Array) });
      expect(find(body, football.id)).toEqual({
        id: String(football.id),
        name: 'Football',
        parent: sport.url,
      });
      expect(find(body, sport.id)).toMatchObject({ parent: news.url });
    });

    it('limits a user to the levels they may view, inheriting through hasPermissions=false', async () => {
      const response = await search('', viewer.token).expect(200);
      // Politics holds its own permissions (none for the viewer); Old is visible though Archive is not.
      expect(ids(response.body)).toEqual([
        { [news.id]: [{ [sport.id]: [String(football.id)] }] },
        String(old.id),
      ]);
      expect(find(response.body, old.id)).toEqual({ id: String(old.id), name: 'Old', parent: archive.url });
    });

    it('searches as the user named by userId', async () => {
      const asViewer = await search(`?userId=${viewer.id}`).expect(200);
      const byViewer = await search('', viewer.token).expect(200);
      expect(asViewer.body).toEqual(byViewer.body);
    });

    it('gives a user without permissions an empty array', async () => {
      const nobody = await t.createUser();
      const response = await search('', nobody.token).expect(200);
      expect(response.body).toEqual([]);
    });
  });

  describe('parentId', () => {
    it('returns that level with its descendants', async () => {
      const response = await search(`?parentId=${news.id}`).expect(200);
      expect(ids(response.body)).toEqual([
        { [news.id]: [{ [sport.id]: [String(football.id)] }, { [politics.id]: [String(elections.id)] }] },
      ]);
      const sub = await search(`?parentId=${sport.id}`, viewer.token).expect(200);
      expect(sub.body).toEqual([
        {
          id: String(sport.id),
          name: 'Sport',
          parent: news.url,
          children: [{ id: String(football.id), name: 'Football', parent: sport.url }],
        },
      ]);
    });

    it('is 404 for a level that does not exist or that the user may not view', async () => {
      await search('?parentId=99999').expect(404);
      const response = await search(`?parentId=${politics.id}`, viewer.token).expect(404);
      expect(response.text).toBe(`access level ${politics.id} does not exist`);
    });

    it.each(['abc', '1.5', '99999999999'])('is 400 for parentId=%s', async (value) => {
      const response = await search(`?parentId=${value}`).expect(400);
      expect(response.text).toBe('parentId must be a whole number');
    });
  });

  describe('counts', () => {
    const countsOf = (nodes: SearchNode[]): Record<string, number | undefined> => {
      const result: Record<string, number | undefined> = {};
      const visit = (node: SearchNode) => {
        result[node.name] = node.count;
        node.children?.forEach(visit);
      };
      nodes.forEach(visit);
      return result;
    };

    it('counts every asset directly in each level without userId', async () => {
      const response = await search('?count=true').expect(200);
      expect(countsOf(response.body)).toEqual({
        Default: 0,
        News: 3,
        Sport: 3,
        Football: 1,
        Politics: 1,
        Elections: 0,
        Archive: 0,
        Old: 1,
      });
      const asViewerToken = await search('?count=true', viewer.token).expect(200);
      expect(countsOf(asViewerToken.body)).toMatchObject({ News: 3, Sport: 3, Old: 1 });
    });

    it('counts only the assets visible to the user named by userId', async () => {
      const viewerCounts = countsOf((await search(`?count=true&userId=${viewer.id}`).expect(200)).body);
      expect(viewerCounts).toEqual({ News: 3, Sport: 1, Football: 1, Old: 1 });
      // the uploader sees their own unsubmitted and upload-pending assets
      const uploaderCounts = countsOf((await search(`?count=true&userId=${uploader.id}`).expect(200)).body);
      expect(uploaderCounts).toEqual({ News: 3, Sport: 3, Football: 1 });
      // an approver of News (and so of Sport) sees them too
      const approverCounts = countsOf((await search(`?count=true&userId=${approver.id}`).expect(200)).body);
      expect(approverCounts).toEqual({ News: 3, Sport: 3, Football: 1 });
      const selfCounts = countsOf(
        (await search(`?count=true&userId=${viewer.id}`, viewer.token).expect(200)).body,
      );
      expect(selfCounts).toEqual(viewerCounts);
    });

    it('counts within a parentId search, and omits counts with count=false', async () => {
      const response = await search(`?count=true&parentId=${sport.id}`).expect(200);
      expect(countsOf(response.body)).toEqual({ Sport: 3, Football: 1 });
      const without = await search(`?count=false&parentId=${sport.id}`).expect(200);
      expect(countsOf(without.body)).toEqual({ Sport: undefined, Football: undefined });
    });

    it.each(['yes', '1', 'TRUE!'])('is 400 for count=%s', async (value) => {
      const response = await search(`?count=${value}`).expect(400);
      expect(response.text).toBe('count must be true or false');
    });
  });

  describe('Accept-Language', () => {
    beforeAll(async () => {
      await http
        .put(new URL(news.url).pathname, t.adminToken, { name: 'Actualités' })
        .set('Content-Language', 'fr');
    });

    it('names levels in the requested language, falling back to the default text', async () => {
      const fr = await search(`?parentId=${news.id}`).set('Accept-Language', 'fr').expect(200);
      expect(fr.body[0].name).toBe('Actualités');
      expect(fr.body[0].children[0].name).toBe('Sport');
      for (const header of ['en', 'de', 'x-invalid-!!']) {
        const other = await search(`?parentId=${news.id}`).set('Accept-Language', header).expect(200);
        expect(other.body[0].name).toBe('News');
      }
    });
  });
});
