import {
  createAssetJsonShape,
  CreateAssetRequest,
  readCreateAssetRequest as read,
} from './create-asset.request';

/** What the route does: XmlBodyInterceptor shapes the body, then the request is read from it. */
async function readCreateAssetRequest(body: unknown): Promise<CreateAssetRequest> {
  return read(await createAssetJsonShape(body));
}

describe('create-asset request', () => {
  it('reads JSON, keeping only access level ids', async () => {
    await expect(
      readCreateAssetRequest({
        accessLevels: [{ id: 3, name: 'x' }, { id: '4' }, { id: 3 }],
        submit: 'false',
      }),
    ).resolves.toEqual({
      accessLevelIds: [3, 4],
      createAsUserId: undefined,
      submit: false,
      assetTypeUrl: undefined,
    });
  });

  it('reads XML with attributes, whitespace and optional fields', async () => {
    const xml =
      '<?xml version="1.0"?><createAsset><accessLevels><accessLevel type="x"><id> 5 </id></accessLevel>' +
      '<accessLevel><id>6</id></accessLevel></accessLevels><createAsUserId>7</createAsUserId>' +
      '<submit>true</submit><assetTypeUrl>http://h/rest/asset-types/2</assetTypeUrl></createAsset>';
    await expect(readCreateAssetRequest(xml)).resolves.toEqual({
      accessLevelIds: [5, 6],
      createAsUserId: '7',
      submit: true,
      assetTypeUrl: 'http://h/rest/asset-types/2',
    });
  });

  it('gives no access levels for an empty body or document', async () => {
    await expect(readCreateAssetRequest(undefined)).resolves.toMatchObject({
      accessLevelIds: [],
      submit: true,
    });
    await expect(readCreateAssetRequest('<createAsset/>')).resolves.toMatchObject({ accessLevelIds: [] });
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE x><createAsset/>'],
    ['an ENTITY in lower case', '<createAsset><!entity x "y"></createAsset>'],
    ['an undefined entity reference', '<createAsset><submit>&x;</submit></createAsset>'],
    ['another root', '<asset/>'],
    ['malformed XML', '<createAsset>'],
  ])('refuses %s', async (_name, xml) => {
    await expect(readCreateAssetRequest(xml)).rejects.toMatchObject({ kind: 'invalid-input' });
  });

  it.each([
    [{ accessLevels: [{ id: 'abc' }] }],
    [{ accessLevels: [{ id: -1 }] }],
    [{ accessLevels: [{ id: 1 }], submit: 'yes' }],
    [{ accessLevels: [{ id: 1 }], assetTypeUrl: 5 }],
    [[1, 2]],
  ])('refuses the malformed request %j', async (body) => {
    await expect(readCreateAssetRequest(body)).rejects.toMatchObject({ kind: 'invalid-input' });
  });
});
