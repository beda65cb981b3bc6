import { bearerRequests, pathOf } from './bearer-requests';
import { TestApp, TestAppOptions, TestUser } from './test-app';

export interface Created {
  id: number;
  url: string;
}

/**
 * Access levels and groups set up through their own APIs (as the application user), for the specs of
 * those APIs and of the areas that build on them.
 */
export function accessLevelRequests(app: () => TestApp) {
  const http = bearerRequests(app);
  const admin = () => app().adminToken;
  return {
    async createLevel(name: string, fields: Record<string, unknown> = {}): Promise<Created> {
      const response = await http.post('/rest/access-levels', admin(), { name, ...fields }).expect(201);
      return { id: response.body.id as number, url: response.headers.location as string };
    },

    /** A group holding, for each access level URL, the listed permissions. */
    async createGroup(name: string, permissions: Record<string, string[]> = {}): Promise<Created> {
      const accessLevelPermissions = Object.entries(permissions).map(([accessLevelUrl, names]) => ({
        accessLevelUrl,
        permissions: names,
      }));
      const response = await http.post('/rest/groups', admin(), { name, accessLevelPermissions }).expect(201);
      return { id: response.body.id as number, url: response.headers.location as string };
    },

    async joinGroups(user: TestUser, groups: Created[]): Promise<void> {
      await http.put(pathOf(user.url), admin(), { groupIds: groups.map((group) => group.id) }).expect(200);
    },
  };
}

/**
 * Boots one app for the spec file (in beforeAll, closed in afterAll) and hands out accessors: `app()`,
 * bearer `http` requests, the access level and group set-ups, and the access level collection URL.
 */
export function useAccessLevelsApp(options: TestAppOptions = {}) {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await TestApp.start(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const app = (): TestApp => {
    if (started === undefined) throw new Error('the app has not started');
    return started;
  };
  return {
    app,
    http: bearerRequests(app),
    api: accessLevelRequests(app),
    collectionUrl: () => `${app().baseUrl}/rest/access-levels`,
  };
}
