import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, defaultLevelWith } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { testVideo } from './helpers/media-fixtures';
import { TestApp } from './helpers/test-app';

jest.setTimeout(120_000);

/**
 * Issue 34: a video's duration, width, height and codec (what the shipped ffmpeg reads of it) are offered to
 * embedded-data mappings of type `VIDEO`, read on an upload with `extractEmbeddedData=true`; a file ffmpeg
 * cannot read gives no facts and its upload still succeeds.
 */
describe('video facts in embedded-data mappings', () => {
  let t: TestApp;
  let level: number;
  let video: Buffer;
  const { get, post } = bearerRequests(() => t);
  const { newAsset, upload } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    ({ level } = await defaultLevelWith(t, new Grants(t), []));
    video = testVideo({ seconds: 2, width: 320, height: 240 });
    for (const [label, typeId, tagName] of [
      ['Clip length', 8, 'Duration'],
      ['Clip codec', 1, 'codec'],
      ['Clip width', 8, 'Width'],
    ] as const) {
      const attribute = await post('/rest/attributes', t.adminToken, { label, typeId }).expect(201);
      const mapping = await post('/rest/embedded-data-mappings', t.adminToken, {
        type: 'video',
        tagName,
        attributeUrl: attribute.body.url,
      }).expect(201);
      expect(mapping.body).toMatchObject({ type: 'VIDEO', tagName, mappingDirection: 'embed-to-attribute' });
    }
  });
  afterAll(() => t?.close());

  /** The values of the mapped attributes on `asset`, by label. */
  async function clipValues(asset: string): Promise<Record<string, string>> {
    const body = (await get(asset, t.adminToken).expect(200)).body as {
      attributes: Array<{ name: string; value: unknown }>;
    };
    const values: Record<string, string> = {};
    for (const { name, value } of body.attributes) {
      if (name.startsWith('Clip ') && value !== null && value !== '') values[name] = String(value);
    }
    return values;
  }

  it('fills the mapped attributes from the video on an upload that asks for embedded data', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, video, 'clip.mp4').query({ extractEmbeddedData: 'true' }).expect(200);
    const values = await clipValues(asset);
    expect(values).toEqual({
      'Clip length': expect.any(String),
      'Clip codec': 'h264',
      'Clip width': '320',
    });
    expect(Number(values['Clip length'])).toBeGreaterThanOrEqual(1.9);
    expect(Number(values['Clip length'])).toBeLessThanOrEqual(2.2);
  });

  it('reads nothing without extractEmbeddedData', async () => {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, video, 'clip.mp4').expect(200);
    expect(await clipValues(asset)).toEqual({});
  });

  it('gives no facts for a video ffmpeg cannot read, and the upload succeeds', async () => {
    const asset = await newAsset(level);
    // The encoder writes the index (`moov`) last: without the end of the file there is no stream to read.
    const truncated = video.subarray(0, Math.floor(video.length / 2));
    await upload(asset, t.adminToken, truncated, 'cut.mp4')
      .query({ extractEmbeddedData: 'true' })
      .expect(200);
    expect(await clipValues(asset)).toEqual({});
  });
});
