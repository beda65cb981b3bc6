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
 * Throws `TooLarge` when the JSON text nests deeper, or has more keys or items, than `limits` allow: the
 * whole text through one JsonShapeMeter.
 */
export function checkJsonShape(text: string, limits: BodyLimits): void {
  new JsonShapeMeter(limits).write(Buffer.from(text, 'utf8'));
}

/**
 * Measures a JSON body's shape as its bytes arrive (UTF-8, or any charset whose structural characters are
 * single ASCII bytes), throwing `TooLarge` at the first byte past a limit: a hostile body costs the bytes
 * read up to its first excess, never the whole body. Strings are skipped (escapes included, also across
 * chunks); it does not validate (JSON.parse does, after it), so any bytes, valid JSON or not, cost time
 * linear in their length.
 */
export class JsonShapeMeter {
  /** Per open container (index = depth): its keys or items so far, and whether it is an object. */
  private readonly counts: Uint32Array;
  private readonly isObject: Uint8Array;
  private depth = 0;
  private keys = 0;
  private inString = false;
  /** Inside a string, the last chunk ended with an odd run of backslashes: the next byte is escaped. */
  private escapePending = false;

  constructor(private readonly limits: BodyLimits) {
    this.counts = new Uint32Array(limits.depth + 1);
    this.isObject = new Uint8Array(limits.depth + 1);
  }

  write(bytes: Uint8Array): void {
    const length = bytes.length;
    let i = 0;
    while (i < length) {
      if (this.inString) {
        i = this.skipString(bytes, i);
        continue;
      }
      const c = bytes[i];
      i += 1;
      if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.open(c === OPEN_OBJECT);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.depth > 0) this.depth -= 1;
      } else if (c === COLON && this.depth > 0 && this.isObject[this.depth] === 1) {
        this.keys += 1;
        this.counts[this.depth] += 1;
        if (this.keys > this.limits.keys) throw tooManyKeys(this.limits.keys);
        if (this.counts[this.depth] > this.limits.objectKeys) throw tooManyObjectKeys(this.limits.objectKeys);
      } else if (c === COMMA && this.depth > 0 && this.isObject[this.depth] === 0) {
        this.counts[this.depth] += 1;
        if (this.counts[this.depth] > this.limits.arrayItems) throw tooManyItems(this.limits.arrayItems);
      }
    }
  }

  private open(object: boolean): void {
    this.depth += 1;
    if (this.depth > this.limits.depth) throw tooDeep(this.limits.depth);
    this.counts[this.depth] = object ? 0 : 1;
    this.isObject[this.depth] = object ? 1 : 0;
  }

  /** From `start` inside a string: the index after its closing quote, or the chunk's length. */
  private skipString(bytes: Uint8Array, start: number): number {
    let i = start;
    if (this.escapePending) {
      this.escapePending = false;
      i += 1;
    }
    for (;;) {
      const quote = bytes.indexOf(QUOTE, i);
      const end = quote < 0 ? bytes.length : quote;
      // The run of backslashes just before `end`, not reaching back before `i` (the escaped byte ends it).
      let backslashes = 0;
      while (end - 1 - backslashes >= i && bytes[end - 1 - backslashes] === BACKSLASH) backslashes += 1;
      if (quote < 0) {
        this.escapePending = backslashes % 2 === 1;
        return bytes.length;
      }
      if (backslashes % 2 === 0) {
        this.inString = false;
        return quote + 1;
      }
      i = quote + 1;
    }
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
