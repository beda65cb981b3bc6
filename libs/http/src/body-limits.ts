import type { BodyLimits } from '@dam/core';
import { TooLarge } from '@dam/errors';

export type { BodyLimits };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Throws `TooLarge` when the JSON text nests deeper, or has more keys or items, than `limits` allow. One
 * pass over the characters, strings skipped; it does not validate (JSON.parse does, after it), so any
 * text, valid or not, costs time linear in its length.
 */
export function checkJsonShape(text: string, limits: BodyLimits): void {
  // Per open container (index = depth): its keys or items so far, and whether it is an object.
  const counts = new Array<number>(limits.depth + 1).fill(0);
  const isObject = new Array<boolean>(limits.depth + 1).fill(false);
  let depth = 0;
  let keys = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i + 1);
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      if (depth > limits.depth) throw tooDeep(limits.depth);
      counts[depth] = c === OPEN_ARRAY ? 1 : 0;
      isObject[depth] = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth -= 1;
    } else if (c === COLON && depth > 0 && isObject[depth]) {
      keys += 1;
      counts[depth] += 1;
      if (keys > limits.keys) throw tooManyKeys(limits.keys);
      if (counts[depth] > limits.objectKeys) throw tooManyObjectKeys(limits.objectKeys);
    } else if (c === COMMA && depth > 0 && !isObject[depth]) {
      counts[depth] += 1;
      if (counts[depth] > limits.arrayItems) throw tooManyItems(limits.arrayItems);
    }
  }
}

/** The index of the quote closing the string whose first character is at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  let i = start;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

/**
 * Throws `TooLarge` when the XML text has more elements, more children in one element, or elements
 * nested deeper than `limits` allow (depth + 1: a JSON leaf is an XML element). One pass: tags are found
 * with indexOf; comments, CDATA, processing instructions and declarations are skipped whole; quoted
 * attribute values may hold `>`. Well-formedness is the XML parser's to judge, after it.
 */
export function checkXmlShape(text: string, limits: BodyLimits): void {
  const maxDepth = limits.depth + 1;
  const children = new Array<number>(maxDepth + 1).fill(0);
  let depth = 0;
  let elements = 0;
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (text.startsWith('<!--', i)) {
      i = after(text, '-->', i + 4);
    } else if (text.startsWith('<![CDATA[', i)) {
      i = after(text, ']]>', i + 9);
    } else if (next === 0x3f /* ? */) {
      i = after(text, '?>', i + 2);
    } else if (next === 0x21 /* ! */) {
      i = after(text, '>', i + 2);
    } else if (next === 0x2f /* / */) {
      if (depth > 0) depth -= 1;
      i = after(text, '>', i + 2);
    } else {
      elements += 1;
      if (elements > limits.keys)
        throw new TooLarge(`the XML request body has more than ${limits.keys} elements`);
      children[depth] += 1;
      if (depth > 0 && children[depth] > limits.arrayItems) {
        throw new TooLarge(`an element of the XML request body has more than ${limits.arrayItems} children`);
      }
      if (depth + 1 > maxDepth) {
        throw new TooLarge(`the XML request body nests elements deeper than ${maxDepth}`);
      }
      const end = endOfTag(text, i + 1);
      if (text.charCodeAt(end - 2) !== 0x2f /* not self-closing: / */) {
        depth += 1;
        children[depth] = 0;
      }
      i = end;
    }
    i = text.indexOf('<', i);
  }
}

/** The index just after the first `marker` from `from` (the text's end when there is none). */
function after(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at < 0 ? text.length : at + marker.length;
}

/** The index just after the `>` ending a start tag, skipping quoted attribute values. */
function endOfTag(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === 0x27 /* ' */) {
      quote = c;
    } else if (c === 0x3e /* > */) {
      return i + 1;
    }
  }
  return text.length;
}

function tooDeep(depth: number): TooLarge {
  return new TooLarge(`the JSON request body nests objects and arrays deeper than ${depth} levels`);
}

function tooManyKeys(keys: number): TooLarge {
  return new TooLarge(`the JSON request body has more than ${keys} keys`);
}

function tooManyObjectKeys(keys: number): TooLarge {
  return new TooLarge(`an object of the JSON request body has more than ${keys} keys`);
}

function tooManyItems(items: number): TooLarge {
  return new TooLarge(`an array of the JSON request body has more than ${items} items`);
}
