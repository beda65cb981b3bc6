import fc from 'fast-check';

/** The vocabulary of the route fuzzer: odd texts, numbers, encodings, bodies and the spec's field names. */

/** Field names of the spec's bodies, beside those the OpenAPI document declares. */
export const SPEC_FIELDS = (
  'name description parent url id accessLevels attributes parents submitted submit archived ' +
  'createAsUserId assetTypeUrl userId assetId username password isAdmin groupIds emailAddress ' +
  'forename surname accessLevelPermissions label typeId value additionalValue attributeUrl ' +
  'attributeId synonyms displayOrder isKeywordSearchable type tagName mappingDirection criteria ' +
  'publishingActionId expirySeconds grant_type client_id client_secret refresh_token token ' +
  'isBrowsable hasPermissions isAlwaysAssignable'
).split(' ');

/** Query parameter names of the spec, beside those the OpenAPI document declares. */
export const SPEC_QUERIES = (
  'userId username page pageSize id count parentId attributeId startSequence width height format ' +
  'cropToFit keywords key timestamp signer sortAttributeId assetIds extractEmbeddedData ' +
  'exactTextMatch approvalStatuses dateAddedLower attribute_1'
).split(' ');

export const NASTY_TEXT = [
  '',
  ' ',
  '0',
  '-1',
  '1e3',
  '0x1',
  '1.5',
  'NaN',
  'null',
  'true',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '9'.repeat(400),
  'x'.repeat(5000),
  "1' OR '1'='1",
  '"; DROP TABLE users; --',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202eevil',
  'e\u0301',
  '\ufeffBOM',
  '😀🏳️‍🌈',
  '\ud800',
  'Ω≈ç√∫',
  '<script>alert(1)</script>',
  '*',
  '/rest/assets/1',
];

export const text = fc.oneof(
  fc.constantFrom(...NASTY_TEXT),
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

export const oddNumber = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 1.5, -0.5, Number.MAX_SAFE_INTEGER),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD, as a client would send). */
export function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Percent sequences that are not valid encodings, sent as they are. */
export const brokenEncoding = fc.constantFrom('%', '%zz', '%C3', '%E0%A4%A', '%ff%fe', '%00');

/** A header value a client may legally send: the UTF-8 bytes of `value`, minus control characters. */
export function headerValue(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

export const MALFORMED_JSON = [
  '{',
  '{"name":',
  '[1,2',
  '{"a":1}}',
  "{'name':'x'}",
  'nul',
  '{"id": 1e999}',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"isAdmin": true}}}',
  '\u0000',
  '"just a string"',
  '12345678901234567890123',
  '',
];

/** Entity attacks: an external entity naming a local file, and ten levels of ten nested entities. */
export const ENTITY_XML = [
  '<?xml version="1.0"?><!DOCTYPE createAsset [<!ENTITY e SYSTEM "file:///etc/passwd">]>' +
    '<createAsset><name>&e;</name><submit>&e;</submit></createAsset>',
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">' +
    Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('') +
    ']><createAsset><name>&lol9;</name></createAsset>',
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/vnd.api+json',
  'application/xml',
  'text/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'text/plain',
  'image/png',
  'garbage',
  '*/*',
  ';;;',
];
