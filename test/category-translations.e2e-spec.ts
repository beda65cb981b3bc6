import { TestApp } from './helpers/test-app';

describe('category translations (DAM_LANGUAGES=en,fr)', () => {
  let t: TestApp;
  let parentPath: string;
  let childPath: string;
  let parentId: number;

  const bearer = { type: 'bearer' } as const;
  const read = (path: string, acceptLanguage?: string) => {
    const request = t.http.get(path).auth(t.adminToken, bearer);
    return acceptLanguage === undefined ? request : request.set('Accept-Language', acceptLanguage);
  };
  const write = (method: 'post' | 'put', path: string, body: object, contentLanguage?: string) => {
    const request = t.http[method](path).auth(t.adminToken, bearer);
    return (contentLanguage === undefined ? request : request.set('Content-Language', contentLanguage)).send(
      body,
    );
  };

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_LANGUAGES: 'en,fr' } });
    const parent = await write('post', '/rest/categories', {
      name: 'Vehicles',
      description: 'Things that move',
    }).expect(201);
    parentPath = new URL(parent.headers.location).pathname;
    parentId = parent.body.id;
    const child = await write('post', '/rest/categories', { name: 'Cars', parent: parent.body.url }).expect(
      201,
    );
    childPath = new URL(child.headers.location).pathname;
    await write('put', parentPath, { name: 'Véhicules' }, 'fr').expect(200);
    await write('put', childPath, { name: 'Voitures', description: 'Quatre roues' }, 'fr').expect(200);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('writing in French leaves the default language alone', async () => {
    const response = await read(childPath).expect(200);
    expect(response.body).toMatchObject({ name: 'Cars', description: null });
  });

  it.each([
    ['fr', 'Véhicules', 'Voitures'],
    ['fr-CA', 'Véhicules', 'Voitures'],
    ['de, fr;q=0.5', 'Véhicules', 'Voitures'],
    ['de', 'Vehicles', 'Cars'],
    ['%%% not a language', 'Vehicles', 'Cars'],
    [undefined, 'Vehicles', 'Cars'],
  ])(
    'Accept-Language %s reads %s / %s, nested children included',
    async (language, parentName, childName) => {
      const response = await read(parentPath, language).expect(200);
      expect(response.body.name).toBe(parentName);
      expect(response.body.children[0].name).toBe(childName);
    },
  );

  it('a text missing in French falls back to the default language', async () => {
    const response = await read(parentPath, 'fr').expect(200);
    expect(response.body.description).toBe('Things that move');
    expect(response.body.children[0].description).toBe('Quatre roues');
  });

  it('the search honours Accept-Language too', async () => {
    const french = await read(`/rest/category-search?parentId=${parentId}`, 'fr-CA').expect(200);
    expect(french.body[0]).toMatchObject({ name: 'Véhicules', description: 'Things that move' });
    expect(french.body[0].children[0]).toMatchObject({ name: 'Voitures', description: 'Quatre roues' });
    const fallback = await read(`/rest/category-search?parentId=${parentId}`, 'de').expect(200);
    expect(fallback.body[0].children[0]).toMatchObject({ name: 'Cars', description: null });
  });

  it('creating in French stores the texts as French and as the default', async () => {
    const created = await write(
      'post',
      '/rest/categories',
      { name: 'Bateaux', description: 'Sur l’eau' },
      'fr',
    ).expect(201);
    const path = new URL(created.headers.location).pathname;
    for (const language of ['fr', 'en', undefined]) {
      expect((await read(path, language).expect(200)).body).toMatchObject({
        name: 'Bateaux',
        description: 'Sur l’eau',
      });
    }
    await write('put', path, { name: 'Boats', description: 'On water' }).expect(200);
    expect((await read(path, 'fr').expect(200)).body).toMatchObject({
      name: 'Bateaux',
      description: 'Sur l’eau',
    });
    expect((await read(path).expect(200)).body).toMatchObject({ name: 'Boats', description: 'On water' });
  });

  it('a null description in French removes the French text, so the default shows again', async () => {
    const created = await write('post', '/rest/categories', {
      name: 'Trains',
      description: 'On rails',
    }).expect(201);
    const path = new URL(created.headers.location).pathname;
    await write('put', path, { description: 'Sur des rails' }, 'fr').expect(200);
    expect((await read(path, 'fr').expect(200)).body.description).toBe('Sur des rails');
    await write('put', path, { description: null }, 'fr').expect(200);
    expect((await read(path, 'fr').expect(200)).body.description).toBe('On rails');
  });

  it('is 400 to write in a language that is not configured, or with an empty name in any language', async () => {
    const refused = await write('post', '/rest/categories', { name: 'Züge' }, 'de').expect(400);
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    await write('put', childPath, { name: 'Autos' }, 'de').expect(400);
    await write('put', childPath, { name: '' }, 'fr').expect(400);
    expect((await read(childPath, 'fr').expect(200)).body.name).toBe('Voitures');
  });
});
