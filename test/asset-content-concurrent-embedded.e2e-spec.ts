import sharp from 'sharp';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { TestApp } from './helpers/test-app';

/**
 * Content PUTs of different assets at the same time, each with `extractEmbeddedData`: every one writes
 * the asset's embedded values and their search tokens (`asset_search_tokens`) in its transaction, the
 * same common words for every asset. On MariaDB the reindexes of neighbouring assets could deadlock
 * (InnoDB's gap locks on the token index) and one PUT answered 500; each must answer 200, and the
 * search must find every asset by its words afterwards.
 */
describe('PUT /rest/assets/{id}/content?extractEmbeddedData=true, many at once', () => {
  let t: TestApp;
  let level: number;
  const assets: string[] = [];
  const { get } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);
  const ASSETS = 8;
  const ROUNDS = 4;

  /** A small JPEG whose embedded description holds `words`. */
  const photo = (words: string, shade: number): Promise<Buffer> =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: { r: shade, g: 90, b: 40 } } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: words, Artist: words.split(' ')[0] } })
      .toBuffer();

  beforeAll(async () => {
    t = await TestApp.start();
    level = await new Grants(t).topLevel('Default');
    for (let i = 0; i < ASSETS; i++) assets.push(await newAsset(level));
  });
  afterAll(() => t?.close());

  it('answers 200 to each, and the words find every asset', async () => {
    const words = ['logo brand red', 'brand logo blue', 'red blue logo', 'logo fresh brand'];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies = await Promise.all(
        assets.map((_, i) => photo(`${words[(round + i) % words.length]} asset${i}`, 10 * i + round)),
      );
      const answers = await Promise.all(
        assets.map((asset, i) =>
          upload(asset, t.adminToken, bodies[i], `photo${i}.jpg`).query({ extractEmbeddedData: 'true' }),
        ),
      );
      expect(answers.map((answer) => `${answer.status} ${answer.status === 200 ? '' : answer.text}`)).toEqual(
        assets.map(() => '200 '),
      );
    }
    for (const word of ['logo', 'asset3']) {
      const found = await get(`/rest/asset-search?keywords=${word}`, t.adminToken).expect(200);
      expect({ word, total: Number(found.headers['x-total-count']) }).toEqual({
        word,
        total: word === 'asset3' ? 1 : ASSETS,
      });
    }
  });
});
