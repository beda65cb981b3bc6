import type { AccessLevelRepresentation, AccessLevelSearchNode } from '@dam/access-levels';
import type { GroupRepresentation, UserRepresentation } from '@dam/access';
import type { AssetRepresentation, PendingApprovalRepresentation } from '@dam/assets';
import { ASSET_XML, PENDING_APPROVAL_XML } from '@dam/assets';
import {
  ASSET_TYPE_XML,
  ATTRIBUTE_XML,
  DISPLAY_GROUP_XML,
  EMBEDDED_DATA_MAPPING_XML,
  KEYWORD_XML,
  LIST_VALUE_XML,
} from '@dam/attributes';
import { ACCESS_LEVEL_XML } from '@dam/access-levels';
import { GROUP_XML, USER_XML } from '@dam/access';
import type { CategoryRepresentation, CategorySearchNode } from '@dam/categories';
import { CATEGORY_XML } from '@dam/categories';
import { CHECKOUT_XML } from '@dam/checkout';
import { LIGHTBOX_ITEM_XML, LIGHTBOX_XML } from '@dam/lightboxes';
import { readXmlList, readXmlRepresentation, toXml, XmlMapping, xmlMapping } from '@dam/http';
import { PUBLISHING_ACTION_XML, PUBLISHING_LOG_XML } from '@dam/publishing';
import { ASSET_SUMMARY_XML } from '@dam/search';
import { SIGNED_URL_XML } from '@dam/signed-urls';
import { CHUNK_XML, TEMP_CHUNKED_FILE_XML } from '@dam/temp-chunked-files';

const U = 'http://dam.example/rest';

/** JSON as XML carries it: numbers and booleans become their text, undefined fields are absent. */
function asXmlText(value: unknown): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(asXmlText);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as object)
        .filter(([, field]) => field !== undefined)
        .map(([key, field]) => [key, asXmlText(field)]),
    );
  }
  return String(value);
}

const accessLevel: AccessLevelRepresentation = {
  url: `${U}/access-levels/1`,
  id: 1,
  name: 'Top',
  description: null,
  parent: null,
  imageUrl: `${U}/access-levels/1/image`,
  isAlwaysAssignable: false,
  hasPermissions: true,
  isSelectedOnLoad: false,
  isBrowsable: true,
  showPromotedItems: false,
  showRecentItems: true,
  isStatic: false,
  count: 3,
  children: [
    {
      url: `${U}/access-levels/2`,
      id: 2,
      name: 'Child <&>',
      description: 'a "child"',
      parent: `${U}/access-levels/1`,
      imageUrl: `${U}/access-levels/2/image`,
      isAlwaysAssignable: true,
      hasPermissions: false,
      isSelectedOnLoad: true,
      isBrowsable: false,
      showPromotedItems: true,
      showRecentItems: false,
      isStatic: true,
      count: 0,
      children: [],
    },
  ],
};
const accessLevelNode: AccessLevelSearchNode = {
  id: '1',
  name: 'Top',
  children: [{ id: '2', name: 'Child', parent: '1', count: 2 }],
};
const asset: AssetRepresentation = {
  url: `${U}/assets/7`,
  id: 7,
  type: 'Image',
  accessLevelIds: '1,2',
  submitted: true,
  approved: false,
  archived: false,
  contentSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  parents: [`${U}/assets/3`, `${U}/assets/4`],
  attributes: [
    { id: '1', name: 'Title', value: 'Bridge' },
    { id: '2', name: 'Description', value: '' },
  ],
  contentUrl: `${U}/assets/7/content`,
  contentUrlUrl: `${U}/assets/7/content/url`,
  displayUrl: `${U}/assets/7/display`,
  thumbnailUrl: `${U}/assets/7/thumbnail`,
  previewUrl: `${U}/assets/7/preview`,
  conversionUrl: `${U}/assets/7/conversion`,
  unwatermarkedLargeImageUrl: `${U}/assets/7/unwatermarked-large-image`,
  assetTypeUrl: `${U}/asset-types/1`,
};
const pendingApproval: PendingApprovalRepresentation = {
  assetInstanceUrl: `${U}/assets/7`,
  assetApprovalUrl: `${U}/assets/7/approve`,
};
const user: UserRepresentation = {
  id: 4,
  url: `${U}/users/4`,
  username: 'ann',
  emailAddress: null,
  forename: 'Ann',
  surname: null,
  groupIds: [1, 5],
  isAdmin: false,
  lightboxUrl: `${U}/users/4/lightboxes`,
};
const group: GroupRepresentation = {
  url: `${U}/groups/5`,
  id: 5,
  name: 'Editors',
  accessLevelPermissions: [
    {
      accessLevelUrl: `${U}/access-levels/1`,
      permissions: ['view', 'download'] as GroupRepresentation['accessLevelPermissions'][0]['permissions'],
    },
    { accessLevelUrl: `${U}/access-levels/2`, permissions: [] },
  ],
};
const category: CategoryRepresentation = {
  url: `${U}/categories/1`,
  id: 1,
  name: 'Places',
  description: null,
  parent: null,
  children: [
    {
      url: `${U}/categories/2`,
      id: 2,
      name: 'Bridges',
      description: 'x',
      parent: `${U}/categories/1`,
      children: [],
    },
  ],
};
const categoryNode: CategorySearchNode = {
  id: 1,
  name: 'Places',
  description: null,
  children: [{ id: 2, name: 'Bridges', description: null, parent: '1', children: [], count: 1 }],
  count: 4,
};

const representations: Array<[string, XmlMapping, object]> = [
  ['root', xmlMapping('root'), { api_name: 'DAM REST API', api_version_1_3: { assetsUrl: `${U}/assets` } }],
  ['asset', ASSET_XML, asset],
  [
    'asset without optional fields',
    ASSET_XML,
    { ...asset, parents: [], attributes: [], assetTypeUrl: undefined },
  ],
  ['pendingApproval', PENDING_APPROVAL_XML, pendingApproval],
  ['accessLevel', ACCESS_LEVEL_XML, accessLevel],
  ['accessLevel (search node)', ACCESS_LEVEL_XML, accessLevelNode],
  ['user', USER_XML, user],
  ['group', GROUP_XML, group],
  ['category', CATEGORY_XML, category],
  ['category (search node)', CATEGORY_XML, categoryNode],
  [
    'lightbox',
    LIGHTBOX_XML,
    {
      id: 3,
      name: 'Harvest',
      description: '',
      size: 2,
      lightboxContentsUrl: `${U}/users/4/lightboxes/3/contents`,
      lightboxPublicUrl: null,
      lightboxInstanceUrl: `${U}/users/4/lightboxes/3`,
    },
  ],
  [
    'lightboxItem',
    LIGHTBOX_ITEM_XML,
    {
      url: `${U}/assets/7`,
      assetInLightboxUrl: `${U}/users/4/lightboxes/3/contents/7`,
      contentUrl: `${U}/assets/7/content`,
      displayUrl: `${U}/assets/7/display`,
      thumbnailUrl: `${U}/assets/7/thumbnail`,
      previewUrl: `${U}/assets/7/preview`,
      unwatermarkedLargeImageUrl: `${U}/assets/7/unwatermarked-large-image`,
      approved: 'true',
      attributes: [{ id: '1', label: 'Title', value: 'Bridge' }],
    },
  ],
  [
    'lightboxItem (instance)',
    LIGHTBOX_ITEM_XML,
    { assetInstanceUrl: `${U}/assets/7`, lightboxInstanceUrl: `${U}/users/4/lightboxes/3` },
  ],
  [
    'publishingAction',
    PUBLISHING_ACTION_XML,
    {
      url: `${U}/publishing-actions/1`,
      id: 1,
      name: 'Feed',
      criteria: 'keywords=bridge',
      logUrl: `${U}/publishing-actions/1/log`,
    },
  ],
  [
    'publishingLog',
    PUBLISHING_LOG_XML,
    {
      events: [
        { assetId: 7, type: 'added' },
        { assetId: 8, type: 'removed' },
      ],
      nextStartSequence: 12,
    },
  ],
  ['checkout', CHECKOUT_XML, { userId: '4' }],
  [
    'checkout (list item)',
    CHECKOUT_XML,
    { assetId: 7, userId: '4', assetUrl: `${U}/assets/7`, checkoutUrl: `${U}/assets/7/checkout` },
  ],
  ['tempChunkedFile', TEMP_CHUNKED_FILE_XML, { url: `${U}/temp-chunked-files/abc`, id: 'abc' }],
  ['chunk', CHUNK_XML, { index: 0, size: 1024 }],
  ['contentUrl', xmlMapping('contentUrl'), { url: 'http://dam.example/files/x?signature=a&timestamp=1' }],
  [
    'assetVersion',
    xmlMapping('assetVersion'),
    {
      version: 2,
      current: true,
      originalFilename: 'a.png',
      fileSize: 10,
      contentType: 'image/png',
      dateAdded: '2026-01-01T00:00:00Z',
      contentUrl: `${U}/assets/7/versions/2/content`,
    },
  ],
  [
    'assetSummary',
    ASSET_SUMMARY_XML,
    {
      id: 7,
      originalFilename: 'a.png',
      fullAssetUrl: `${U}/assets/7`,
      contentSha256: null,
      thumbnailUrl: `${U}/assets/7/thumbnail`,
      previewUrl: `${U}/assets/7/preview`,
      unwatermarkedLargeImageUrl: `${U}/assets/7/unwatermarked-large-image`,
      dateLastModifiedTimestamp: 1767225600000,
      approved: true,
      typeId: null,
      typeName: 'Image',
      accessLevelIds: '1',
      displayAttributes: [{ label: 'Title', value: 'Bridge' }],
      attributes: [{ name: 'Title', value: 'Bridge' }],
    },
  ],
  [
    'attribute',
    ATTRIBUTE_XML,
    {
      url: `${U}/attributes/1`,
      id: 1,
      label: 'Title',
      staticName: 'title',
      typeId: 1,
      isReadOnly: false,
      isKeywordSearchable: true,
      displayOrder: 1,
      listValuesUrl: null,
      keywordsUrl: null,
    },
  ],
  [
    'keyword',
    KEYWORD_XML,
    {
      url: `${U}/keywords/1`,
      id: 1,
      name: 'Water',
      attributeUrl: `${U}/attributes/9`,
      parent: null,
      synonyms: ['aqua', 'H2O'],
      children: [
        {
          url: `${U}/keywords/2`,
          id: 2,
          name: 'River',
          attributeUrl: `${U}/attributes/9`,
          parent: `${U}/keywords/1`,
          children: [],
          synonyms: [],
        },
      ],
    },
  ],
  [
    'displayAttributeGroup',
    DISPLAY_GROUP_XML,
    {
      url: `${U}/display-attribute-groups/1`,
      id: 1,
      name: 'Main',
      displayOrder: 1,
      attributes: [{ id: 1, url: `${U}/attributes/1`, label: 'Title' }],
    },
  ],
  [
    'embeddedDataMapping',
    EMBEDDED_DATA_MAPPING_XML,
    {
      url: `${U}/embedded-data-mappings/1`,
      id: 1,
      type: 'EXIF',
      displayName: 'Artist',
      tagName: 'Artist',
      mappingDirection: 'both',
      attributeUrl: `${U}/attributes/1`,
      attributeLabel: 'Title',
    },
  ],
  [
    'listAttributeValue',
    LIST_VALUE_XML,
    { url: `${U}/list-attribute-values/1`, value: 'Red', additionalValue: null },
  ],
  ['assetType', ASSET_TYPE_XML, { url: `${U}/asset-types/1`, id: 1, name: 'Image' }],
  ['signedUrl', SIGNED_URL_XML, { url: 'http://dam.example/rest/assets/7?signature=a&timestamp=0' }],
];

describe('XML round trip: JSON -> XML -> parsed gives the same fields', () => {
  it.each(representations)('%s', async (_name, mapping, json) => {
    const xml = toXml(json, { kind: 'object', mapping });
    expect(await readXmlRepresentation(xml, mapping)).toEqual(asXmlText(json));
  });

  it.each(representations)('%s as an item of a list', async (_name, mapping, json) => {
    const xml = toXml([json, json], { kind: 'list', wrapper: 'items', mapping });
    expect(await readXmlList(xml, 'items', mapping)).toEqual([asXmlText(json), asXmlText(json)]);
  });
});
