import { BodyLimits, checkJsonShape, checkXmlShape, JsonShapeMeter } from './body-limits';
import { TooLarge } from '@dam/errors';

const limits: BodyLimits = { depth: 3, objectKeys: 3, keys: 5, arrayItems: 4 };

function refusal(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(TooLarge);
    return (error as Error).message;
  }
}

describe('checkJsonShape', () => {
  const json = (text: string) => refusal(() => checkJsonShape(text, limits));

  it('accepts bodies at the limits', () => {
    expect(json('{"a":{"b":[1,2,3,4]},"c":1}')).toBeUndefined();
    expect(json('[[[]]]')).toBeUndefined();
    expect(json('[]')).toBeUndefined();
  });

  it('refuses each limit passed', () => {
    expect(json('[[[[]]]]')).toBe('the JSON request body nests objects and arrays deeper than 3 levels');
    expect(json('{"a":1,"b":2,"c":3,"d":4}')).toBe('an object of the JSON request body has more than 3 keys');
    expect(json('[{"a":1,"b":2},{"c":3,"d":4},{"e":5,"f":6}]')).toBe(
      'the JSON request body has more than 5 keys',
    );
    expect(json('[1,2,3,4,5]')).toBe('an array of the JSON request body has more than 4 items');
  });

  it('counts only outside strings, escaped quotes included', () => {
    expect(json('{"a":"[[[[{:,:,:,:}]]]]","b":"\\"[[[[\\\\","c":"x\\\\"}')).toBeUndefined();
    expect(json('["\\\\",{"a":[[[]]]}]')).toBe(
      'the JSON request body nests objects and arrays deeper than 3 levels',
    );
  });

  it('counts each object on its own', () => {
    expect(json('[{"a":1,"b":2,"c":3},{"a":1,"b":2}]')).toBeUndefined();
  });

  it('leaves invalid text to JSON.parse, in linear time', () => {
    expect(json(']]]]}}}{"a"')).toBeUndefined();
    expect(json('"unterminated')).toBeUndefined();
  });
});

describe('JsonShapeMeter', () => {
  /** The text's bytes fed in chunks of `size` (strings and escapes cut anywhere). */
  const chunked = (text: string, size: number) =>
    refusal(() => {
      const meter = new JsonShapeMeter(limits);
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; at += size) meter.write(bytes.subarray(at, at + size));
    });

  it('judges a body cut into chunks as it judges the whole (escapes across chunk ends)', () => {
    const texts = [
      '{"a":{"b":[1,2,3,4]},"c":1}',
      '[[[[]]]]',
      '{"a":1,"b":2,"c":3,"d":4}',
      '[1,2,3,4,5]',
      '{"a":"[[[[{:,:,:,:}]]]]","b":"\\"[[[[\\\\","c":"x\\\\"}',
      '["\\\\",{"a":[[[]]]}]',
      '["\\\\\\"[[[[","é\\\\",[[[]]]]',
      '{"ключ":"значение","b":"\\u005c","c":[{"d":1}]}',
    ];
    for (const text of texts) {
      const whole = refusal(() => checkJsonShape(text, limits));
      for (const size of [1, 2, 3, 5]) expect([text, size, chunked(text, size)]).toEqual([text, size, whole]);
    }
  });

  it('stops at the first excess: what follows is never looked at', () => {
    const meter = new JsonShapeMeter(limits);
    expect(() => meter.write(Buffer.from('{"a":1,"b":2,"c":3,"d":4'))).toThrow(TooLarge);
  });
});

describe('checkXmlShape', () => {
  const xml = (text: string, keys = limits.keys) => refusal(() => checkXmlShape(text, { ...limits, keys }));

  it('accepts documents at the limits (depth + 1: leaves are elements)', () => {
    expect(xml('<?xml version="1.0"?><a><b><c><d>1</d></c></b><e/></a>')).toBeUndefined();
  });

  it('refuses each limit passed', () => {
    expect(xml('<a><b><c><d><e/></d></c></b></a>')).toBe('the XML request body nests elements deeper than 4');
    expect(xml('<a><b/><b/><b/><b/><b/></a>', 100)).toBe(
      'an element of the XML request body has more than 4 children',
    );
    expect(xml('<a><b><c/><c/></b><b><c/><c/></b></a>')).toBe(
      'the XML request body has more than 5 elements',
    );
  });

  it('skips comments, CDATA, declarations and quoted attribute values', () => {
    expect(
      xml('<a x="<b><b><b>" y=\'>\'><!-- <b><b><b><b> --><![CDATA[<b><b><b><b>]]><b/></a>'),
    ).toBeUndefined();
  });
});
