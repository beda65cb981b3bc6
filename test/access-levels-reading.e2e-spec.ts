import { AccessLevelsService } from '@dam/access-levels';
import { Created, useAccessLevelsApp } from './helpers/access-level-requests';
import { pathOf } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';
import { TestUser } from './helpers/test-app';

/** What users see of access levels: visibility by permission, counts as another user, translations. */
describe('access levels: reading', () => {
  const { app, http, api } = useAccessLevelsApp({ env: { DAM_LANGUAGES: 'en,fr' } });
  let admin: TestUser;

  beforeAll(async () => {
    admin = await app().createUser({ admin: true });
  });

  describe('reading as a user with some permissions', () => {
    let bob: TestUser;
    let top: Created;
    let inherits: Created;
    let own: Created;
    let ownChild: Created;
    let hidden: Created;

    beforeAll(async () => {
      bob = await app().createUser();
      top = await api.createLevel('Visible top');
      inherits = await api.createLevel('Inherits', { parent: top.url });
      own = await api.createLevel('Own permissions', { parent: top.url, hasPermissions: true });
      ownChild = await api.createLevel('Under own', { parent: own.url });
      hidden = await api.createLevel('Hidden top');
      const viewers = await api.createGroup('Bob viewers', { [top.url]: ['view'] });
      await api.joinGroups(bob, [viewers]);
    });

    it('lists only the levels the user may view (view inherited through hasPermissions=false)', async () => {
      const response = await http.get('/rest/access-levels', bob.token).expect(200);
      expect(response.body).toEqual([top.url, inherits.url]);
    });

    it('shows only visible children', async () => {
      const response = await http.get(pathOf(top.url), bob.token).expect(200);
      expect(response.body.children.map((child: { id: number }) => child.id)).toEqual([inherits.id]);
    });

    it('answers 404 for a level the user may not view, as if it did not exist', async () => {
      for (const level of [own, ownChild, hidden]) {
        const response = await http.get(pathOf(level.url), bob.token).expect(404);
        expect(response.text).toBe(`access level ${level.id} does not exist`);
      }
    });

    it('lets an admin read as the user with userId, and counts only what that user sees', async () => {
      await insertAssets(app(), [
        { accessLevelIds: [top.id] },
        { accessLevelIds: [top.id], submitted: false, addedByUserId: admin.id },
      ]);
      const asBob = await http.get(`${pathOf(top.url)}?userId=${bob.id}`, app().adminToken).expect(200);
      expect(asBob.body.count).toBe(1);
      expect(asBob.body.children).toHaveLength(1);
      const all = await http.get(pathOf(top.url), app().adminToken).expect(200);
      expect(all.body.count).toBe(2);
      await http.get(`${pathOf(hidden.url)}?userId=${bob.id}`, app().adminToken).expect(404);
    });

    it('is 403 when a non-admin names another user', async () => {
      await http.get(`${pathOf(top.url)}?userId=${admin.id}`, bob.token).expect(403);
    });
  });

  describe('translations', () => {
    let level: Created;
    beforeAll(async () => {
      level = await api.createLevel('Pictures', { description: 'Default text' });
      await http
        .put(pathOf(level.url), app().adminToken, { name: 'Images' })
        .set('Content-Language', 'fr')
        .expect(200);
    });

    const nameIn = async (language: string | undefined) => {
      const request = http.get(pathOf(level.url), app().adminToken);
      if (language !== undefined) request.set('Accept-Language', language);
      return (await request.expect(200)).body as { name: string; description: string | null };
    };

    it('writes the French name without touching the default one', async () => {
      expect((await nameIn('fr')).name).toBe('Images');
      expect((await nameIn('en')).name).toBe('Pictures');
      expect((await nameIn(undefined)).name).toBe('Pictures');
    });

    it('falls back to the default language for unknown languages and untranslated fields', async () => {
      expect((await nameIn('de')).name).toBe('Pictures');
      expect((await nameIn('not a language!!')).name).toBe('Pictures');
      expect((await nameIn('fr-CA, en;q=0.5')).name).toBe('Images');
      expect((await nameIn('fr')).description).toBe('Default text');
    });

    it('writes and removes a French description', async () => {
      await http
        .put(pathOf(level.url), app().adminToken, { description: 'Texte' })
        .set('Content-Language', 'fr')
        .expect(200);
      expect((await nameIn('fr')).description).toBe('Texte');
      expect((await nameIn('en')).description).toBe('Default text');
      await http
        .put(pathOf(level.url), app().adminToken, { description: null })
        .set('Content-Language', 'fr')
        .expect(200);
      expect((await nameIn('fr')).description).toBe('Default text');
    });

    it('creates a level in French, which also gives it its default name', async () => {
      const response = await http
        .post('/rest/access-levels', app().adminToken, { name: 'Vidéos' })
        .set('Content-Language', 'fr')
        .expect(201);
      await http.put(pathOf(response.headers.location), app().adminToken, { name: 'Videos' }).expect(200);
      const fr = await http
        .get(pathOf(response.headers.location), app().adminToken)
        .set('Accept-Language', 'fr');
      const en = await http
        .get(pathOf(response.headers.location), app().adminToken)
        .set('Accept-Language', 'en');
      expect([fr.body.name, en.body.name]).toEqual(['Vidéos', 'Videos']);
    });

    it('is 400 for a Content-Language that is not configured', async () => {
      const response = await http
        .put(pathOf(level.url), app().adminToken, { name: 'Bilder' })
        .set('Content-Language', 'de')
        .expect(400);
      expect(response.text).toMatch(/Content-Language de is not one of the configured languages/);
    });
  });

  describe('assignability rule for assets', () => {
    it('refuses unknown levels and levels with children unless always assignable', async () => {
      const service = app().app.get(AccessLevelsService);
      const leaf = await api.createLevel('Leaf');
      const parent = await api.createLevel('Branch');
      await api.createLevel('Twig', { parent: parent.url });
      const always = await api.createLevel('Always', { isAlwaysAssignable: true });
      await api.createLevel('Sub', { parent: always.url });
      await expect(service.requireAssignable([leaf.id, always.id])).resolves.toBeUndefined();
      await expect(service.requireAssignable([leaf.id, parent.id])).rejects.toThrow(
        `access level ${parent.id} has sub-access levels and is not always assignable`,
      );
      await expect(service.requireAssignable([99999])).rejects.toThrow('access level 99999 does not exist');
    });
  });
});
