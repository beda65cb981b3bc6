import { useAccessLevelsApp } from './helpers/access-level-requests';
import { pathOf } from './helpers/bearer-requests';
import { insertAssets } from './helpers/fixtures';

/** Deleting access levels, and the collection-wide PUT and DELETE (spec 4.9 "not shown": see docs/api-decisions.md). */
describe('access levels: deletion and the collection', () => {
  const { app, http, api, collectionUrl: rest } = useAccessLevelsApp();

  describe('DELETE /rest/access-levels/{id}', () => {
    it('deletes an empty level: 204, then 404', async () => {
      const level = await api.createLevel('Empty');
      const group = await api.createGroup('Holder', { [level.url]: ['view'] });
      await http.delete(pathOf(level.url), app().adminToken).expect(204);
      await http.get(pathOf(level.url), app().adminToken).expect(404);
      const groupAfter = await http.get(pathOf(group.url), app().adminToken).expect(200);
      expect(groupAfter.body.accessLevelPermissions).toEqual([]);
    });

    it('is 400 when the level has a child', async () => {
      const parent = await api.createLevel('HasChild');
      await api.createLevel('TheChild', { parent: parent.url });
      const response = await http.delete(pathOf(parent.url), app().adminToken).expect(400);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.text).toBe(
        `access level ${parent.id} has sub-access levels; delete or move them first`,
      );
    });

    it('is 400 when the level holds an asset', async () => {
      const level = await api.createLevel('HasAsset');
      await insertAssets(app(), [{ accessLevelIds: [level.id] }]);
      const response = await http.delete(pathOf(level.url), app().adminToken).expect(400);
      expect(response.text).toBe(`access level ${level.id} contains assets and cannot be deleted`);
    });

    it('is 404 for an unknown level', async () => {
      await http.delete('/rest/access-levels/99999', app().adminToken).expect(404);
    });
  });

  describe('PUT /rest/access-levels (several levels at once)', () => {
    it('updates each level named by its url, in one go', async () => {
      const one = await api.createLevel('One');
      const two = await api.createLevel('Two');
      const response = await http
        .put('/rest/access-levels', app().adminToken, [
          { url: one.url, name: 'One!' },
          { url: two.url, parent: one.url, isAlwaysAssignable: true },
        ])
        .expect(200);
      expect(response.body).toEqual([
        expect.objectContaining({
          id: one.id,
          name: 'One!',
          children: [expect.objectContaining({ id: two.id })],
        }),
        expect.objectContaining({ id: two.id, parent: one.url, isAlwaysAssignable: true }),
      ]);
    });

    it('refuses a cycle made by two moves together, changing nothing', async () => {
      const a = await api.createLevel('CycA');
      const b = await api.createLevel('CycB');
      await http
        .put('/rest/access-levels', app().adminToken, [
          { url: a.url, parent: b.url, name: 'renamed' },
          { url: b.url, parent: a.url },
        ])
        .expect(400);
      const after = await http.get(pathOf(a.url), app().adminToken).expect(200);
      expect(after.body).toMatchObject({ parent: null, name: 'CycA' });
    });

    it.each([
      [{ name: 'not an array' }, /array/],
      [[{ name: 'no url' }], /url must be a string/],
      [[{ url: '/rest/users/2', name: 'x' }], /is not an access level URL/],
      [
        [{ url: 'http://h/rest/access-levels/1', name: 'x' }],
        /^url: http:\/\/h\/rest\/access-levels\/1 is not a URL of this service$/,
      ],
    ])('is 400 for %j', async (body, message) => {
      const response = await http.put('/rest/access-levels', app().adminToken, body).expect(400);
      expect(response.text).toMatch(message);
    });

    it('is 400 for a url naming no access level, or a level named twice', async () => {
      const level = await api.createLevel('Twice');
      const missing = await http
        .put('/rest/access-levels', app().adminToken, [{ url: `${rest()}/99999`, name: 'x' }])
        .expect(400);
      expect(missing.text).toBe(`"${rest()}/99999" names no access level`);
      const twice = await http
        .put('/rest/access-levels', app().adminToken, [{ url: level.url }, { url: level.url }])
        .expect(400);
      expect(twice.text).toBe('each access level may appear only once');
    });
  });

  describe('DELETE /rest/access-levels?id=', () => {
    it('deletes several levels, a parent together with its child', async () => {
      const parent = await api.createLevel('BulkParent');
      const child = await api.createLevel('BulkChild', { parent: parent.url });
      const other = await api.createLevel('BulkOther');
      await http
        .delete(`/rest/access-levels?id=${parent.id},${child.id}&id=${other.id}`, app().adminToken)
        .expect(204);
      for (const level of [parent, child, other])
        await http.get(pathOf(level.url), app().adminToken).expect(404);
    });

    it('deletes nothing when one of them may not go', async () => {
      const fine = await api.createLevel('Fine');
      const response = await http
        .delete(`/rest/access-levels?id=${fine.id}&id=1`, app().adminToken)
        .expect(400);
      expect(response.text).toBe('access level 1 is static and cannot be deleted');
      await http.get(pathOf(fine.url), app().adminToken).expect(200);
    });

    it('is 400 without ids, pointing at the instance route', async () => {
      for (const path of ['/rest/access-levels', '/rest/access-levels?id=abc', '/rest/access-levels?id=']) {
        const response = await http.delete(path, app().adminToken).expect(400);
        expect(response.text).toMatch(/DELETE an access level's own URL|id must be a whole number/);
      }
    });
  });
});
