import { bearerRequests, itRefusesRequestsWithoutAToken, pathOf } from './helpers/bearer-requests';
import { TestApp, TestUser } from './helpers/test-app';

interface Keyword {
  url: string;
  id: number;
  name: string;
  attributeUrl: string;
  parent: string | null;
  children: Keyword[];
  synonyms: string[];
}

describe('keywords', () => {
  let t: TestApp;
  let admin: TestUser;
  let alice: TestUser;
  let keywordsAttributeUrl: string;

  beforeAll(async () => {
    t = await TestApp.start();
    [admin, alice] = await Promise.all([t.createUser({ admin: true }), t.createUser()]);
    keywordsAttributeUrl = `${t.baseUrl}/rest/attributes/3`;
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, put, delete: remove } = bearerRequests(() => t);

  async function createKeyword(body: object): Promise<Keyword> {
    const response = await post('/rest/keywords', admin.token, {
      attributeUrl: keywordsAttributeUrl,
      ...body,
    }).expect(201);
    expect(response.headers.location).toBe(response.body.url);
    return response.body as Keyword;
  }

  async function newKeywordsAttribute(): Promise<string> {
    const response = await post('/rest/attributes', admin.token, { label: 'Subjects', typeId: 7 }).expect(
      201,
    );
    return response.headers.location as string;
  }

  describe('without a token', () => {
    itRefusesRequestsWithoutAToken(
      () => t,
      [
        ['GET', '/rest/attributes/3/keywords'],
        ['GET', '/rest/keywords'],
        ['POST', '/rest/keywords'],
        ['GET', '/rest/keywords/1'],
        ['PUT', '/rest/keywords/1'],
        ['DELETE', '/rest/keywords/1'],
      ],
    );
  });

  describe('a tree of keywords', () => {
    it('is built with POST and read as nested children with synonyms', async () => {
      const attributeUrl = await newKeywordsAttribute();
      const animals = await createKeyword({
        attributeUrl,
        name: 'Animals',
        synonyms: ['Fauna', 'fauna', ' Beasts '],
      });
      expect(animals).toEqual({
        url: `${t.baseUrl}/rest/keywords/${animals.id}`,
        id: animals.id,
        name: 'Animals',
        attributeUrl,
        parent: null,
        children: [],
        synonyms: ['Beasts', 'Fauna'],
      });
      const dogs = await createKeyword({ attributeUrl, name: 'Dogs', parent: animals.url });
      const cats = await createKeyword({
        attributeUrl,
        name: 'Cats',
        parent: animals.url,
        synonyms: ['Felines'],
      });
      const puppies = await createKeyword({ attributeUrl, name: 'Puppies', parent: dogs.url });
      const plants = await createKeyword({ attributeUrl, name: 'Plants' });

      // The attribute's keywords are a base collection too: the URLs of its top-level keywords.
      const topLevel = await get(`${pathOf(attributeUrl)}/keywords`, alice.token).expect(200);
      expect(topLevel.body).toEqual([animals.url, plants.url]);
      const second = await get(`${pathOf(attributeUrl)}/keywords?page=1&pageSize=1`, alice.token).expect(200);
      expect([second.body, second.headers['x-total-count']]).toEqual([[plants.url], '2']);
      // Each answers the keyword with its subtree.
      const animalNode = (await get(pathOf(animals.url), alice.token).expect(200)).body as Keyword;
      expect(animalNode.children.map((node) => node.name)).toEqual(['Cats', 'Dogs']);
      expect(animalNode.children[0]).toMatchObject({
        id: cats.id,
        parent: animals.url,
        synonyms: ['Felines'],
      });
      expect(animalNode.children[1].children).toEqual([{ ...puppies, children: [], synonyms: [] }]);
      expect((await get(pathOf(plants.url), alice.token).expect(200)).body).toEqual(plants);

      const one = await get(pathOf(dogs.url), alice.token).expect(200);
      expect(one.body).toMatchObject({
        name: 'Dogs',
        parent: animals.url,
        children: [expect.objectContaining({ id: puppies.id })],
      });

      const filtered = await get(
        `/rest/keywords?attributeId=${attributeUrl.split('/').pop()}`,
        alice.token,
      ).expect(200);
      // The base collection lists the URL of every keyword (not only the top level): each tree depth
      // first, a parent before its children, siblings by name.
      expect(filtered.body).toEqual([animals.url, cats.url, dogs.url, puppies.url, plants.url]);
      const all = await get('/rest/keywords', alice.token).expect(200);
      expect(all.body).toEqual(expect.arrayContaining(filtered.body));
      for (const url of all.body as string[])
        expect(url).toMatch(new RegExp(`^${t.baseUrl}/rest/keywords/\\d+$`));
      const paged = await get(
        `/rest/keywords?attributeId=${attributeUrl.split('/').pop()}&page=1&pageSize=2`,
        alice.token,
      ).expect(200);
      expect(paged.body).toEqual([dogs.url, puppies.url]);
      expect(paged.headers['x-total-count']).toBe('5');
      expect((await get(pathOf(all.body[0]), alice.token).expect(200)).body.url).toBe(all.body[0]);
    });

    it('is empty for a keywords attribute without keywords, and 400 for other attributes', async () => {
      const attributeUrl = await newKeywordsAttribute();
      expect((await get(`${pathOf(attributeUrl)}/keywords`, alice.token).expect(200)).body).toEqual([]);
      const response = await get('/rest/attributes/1/keywords', alice.token).expect(400);
      expect(response.text).toBe('attribute 1 is not a keywords attribute, so it has no keywords');
      await get('/rest/attributes/999999/keywords', alice.token).expect(404);
      await get('/rest/keywords?attributeId=abc', alice.token).expect(400);
    });
  });

  describe('POST /rest/keywords', () => {
    it.each([
      [{ name: 'X', attributeUrl: undefined }, 'you must supply the attributeUrl of the keywords attribute'],
      [{ name: 'X', attributeUrl: '/rest/keywords/1' }, '"/rest/keywords/1" is not an attribute URL'],
      [
        { name: 'X', attributeUrl: 'http://x/rest/attributes/999999' },
        'attributeUrl: http://x/rest/attributes/999999 is not a URL of this service',
      ],
      [{ name: 'X', attributeUrl: '/rest/attributes/999999' }, 'attribute 999999 does not exist'],
      [
        { name: 'X', attributeUrl: '/rest/attributes/2' },
        'attribute 2 is not a keywords attribute, so it has no keywords',
      ],
      [{ name: '  ' }, 'you must supply a name for the keyword'],
      [{}, 'you must supply a name for the keyword'],
      [{ name: 'X', parent: '/rest/attributes/3' }, '"/rest/attributes/3" is not a keyword URL'],
      [{ name: 'X', parent: '/rest/keywords/999999' }, 'keyword 999999 does not exist'],
      [
        { name: 'X', parent: 'http://elsewhere.invalid/rest/keywords/1' },
        'parent: http://elsewhere.invalid/rest/keywords/1 is not a URL of this service',
      ],
      [{ name: 'X', synonyms: 'one' }, 'synonyms must be an array of text'],
      [{ name: 'X', synonyms: ['ok', ''] }, 'synonyms cannot be blank'],
      [{ name: 'X', synonyms: [3] }, 'synonyms cannot be blank'],
    ])('is 400 for %j', async (body, message) => {
      const response = await post('/rest/keywords', admin.token, {
        attributeUrl: keywordsAttributeUrl,
        ...body,
      }).expect(400);
      expect(response.text).toBe(message);
    });

    it('is 400 for a parent of another attribute', async () => {
      const otherAttribute = await newKeywordsAttribute();
      const foreign = await createKeyword({ attributeUrl: otherAttribute, name: 'Foreign' });
      const response = await post('/rest/keywords', admin.token, {
        attributeUrl: keywordsAttributeUrl,
        name: 'Child',
        parent: foreign.url,
      }).expect(400);
      expect(response.text).toBe(`keyword ${foreign.id} belongs to another attribute`);
    });

    it('is 409 for a name its siblings already have, whatever its case', async () => {
      const top = await createKeyword({ name: 'Sky' });
      await post('/rest/keywords', admin.token, { attributeUrl: keywordsAttributeUrl, name: 'sky' }).expect(
        409,
      );
      await createKeyword({ name: 'Sky', parent: top.url });
      const response = await post('/rest/keywords', admin.token, {
        attributeUrl: keywordsAttributeUrl,
        name: 'SKY',
        parent: top.url,
      }).expect(409);
      expect(response.text).toBe('a keyword named SKY already exists at this place in the tree');
    });

    it('is 403 for a non-admin', async () => {
      await post('/rest/keywords', alice.token, { attributeUrl: keywordsAttributeUrl, name: 'Mine' }).expect(
        403,
      );
    });
  });

  describe('PUT /rest/keywords/{id}', () => {
    it('renames, moves and replaces synonyms through a GET-modify-PUT round trip', async () => {
      const water = await createKeyword({ name: 'Water' });
      const sea = await createKeyword({ name: 'Sea', synonyms: ['Ocean'] });
      const current = (await get(pathOf(sea.url), admin.token).expect(200)).body as Keyword;
      const moved = await put(pathOf(sea.url), admin.token, {
        ...current,
        name: 'Seas',
        parent: water.url,
        synonyms: ['Oceans', 'Main'],
      }).expect(200);
      expect(moved.body).toEqual({
        ...current,
        name: 'Seas',
        parent: water.url,
        synonyms: ['Main', 'Oceans'],
      });
      const parent = await get(pathOf(water.url), alice.token).expect(200);
      expect(parent.body.children).toEqual([moved.body]);
      const untouched = await put(pathOf(sea.url), admin.token, { name: 'Seas' }).expect(200);
      expect(untouched.body).toEqual(moved.body);
      const topLevel = await put(pathOf(sea.url), admin.token, { parent: null, synonyms: [] }).expect(200);
      expect(topLevel.body).toMatchObject({ parent: null, synonyms: [] });
    });

    it('refuses cycles, other attributes and duplicate names with 400/409', async () => {
      const root = await createKeyword({ name: 'Root' });
      const child = await createKeyword({ name: 'Branch', parent: root.url });
      const leaf = await createKeyword({ name: 'Leaf', parent: child.url });
      for (const parent of [root.url, leaf.url]) {
        const response = await put(pathOf(root.url), admin.token, { parent }).expect(400);
        expect(response.text).toBe('a keyword cannot be placed below itself or one of its descendants');
      }
      const other = await newKeywordsAttribute();
      const response = await put(pathOf(leaf.url), admin.token, { attributeUrl: other }).expect(400);
      expect(response.text).toBe('a keyword cannot move to another attribute');
      await createKeyword({ name: 'Twig', parent: child.url });
      await put(pathOf(leaf.url), admin.token, { name: 'twig' }).expect(409);
      await put(pathOf(leaf.url), admin.token, { name: '' }).expect(400);
    });

    it('is 403 for a non-admin and 404 for an unknown keyword', async () => {
      const keyword = await createKeyword({ name: 'Guarded' });
      await put(pathOf(keyword.url), alice.token, { name: 'Mine' }).expect(403);
      await put('/rest/keywords/999999', admin.token, { name: 'Nothing' }).expect(404);
    });
  });

  describe('DELETE /rest/keywords/{id}', () => {
    it('deletes a leaf: 204, then 404', async () => {
      const keyword = await createKeyword({ name: 'Temporary', synonyms: ['Brief'] });
      await remove(pathOf(keyword.url), admin.token).expect(204);
      await get(pathOf(keyword.url), alice.token).expect(404);
    });

    it('is 400 while the keyword has children', async () => {
      const parent = await createKeyword({ name: 'Parent' });
      const child = await createKeyword({ name: 'Kid', parent: parent.url });
      const response = await remove(pathOf(parent.url), admin.token).expect(400);
      expect(response.text).toBe('the keyword Parent has child keywords: delete or move them first');
      await remove(pathOf(child.url), admin.token).expect(204);
      await remove(pathOf(parent.url), admin.token).expect(204);
    });

    it('is 403 for a non-admin and 404 for an unknown keyword', async () => {
      const keyword = await createKeyword({ name: 'Kept' });
      await remove(pathOf(keyword.url), alice.token).expect(403);
      await remove('/rest/keywords/999999', admin.token).expect(404);
      await get('/rest/keywords/x', alice.token).expect(404);
    });

    it('all go with their attribute', async () => {
      const attributeUrl = await newKeywordsAttribute();
      const parent = await createKeyword({ attributeUrl, name: 'Top', synonyms: ['Summit'] });
      const child = await createKeyword({ attributeUrl, name: 'Below', parent: parent.url });
      await remove(pathOf(attributeUrl), admin.token).expect(204);
      await get(pathOf(child.url), alice.token).expect(404);
      await get(pathOf(parent.url), alice.token).expect(404);
    });
  });
});
