import { TermQuery } from '@dam/assets';
import { searchTokens } from '@dam/core';

/**
 * A parsed keyword query: the assets area's TermQuery. A term holds the index tokens of one word as the
 * index keeps them (a word such as `O'Brien` is two tokens, all required); `prefix` makes the last token
 * a prefix (`bri*`). `all` is the lone `*`.
 */
export type KeywordQuery = TermQuery;

/** At most this many words (and index tokens) reach the database; more fall back to plain terms. */
const MAX_TERMS = 32;
const MAX_TOKENS = 64;
/** Parentheses and NOTs nest at most this deep; deeper falls back to plain terms. */
const MAX_DEPTH = 16;
/** Longer input is cut to this many characters and read as plain terms. */
export const MAX_KEYWORDS_LENGTH = 1000;

type Lexeme = { kind: 'word'; text: string } | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' | '(' | ')' };

/** Why the structured reading failed; never leaves this file (the input is then read as plain terms). */
class Malformed extends Error {}

/**
 * Parses `bridge river`, `bridge AND (river OR canal)`, `bridge NOT river`, `bri*`, `"tower bridge"`.
 * Operators are upper case (`and` is a word); words side by side mean AND; NOT binds tightest, then
 * AND, then OR. A quoted phrase requires all its words. Words with no letters or digits are dropped.
 * Returns undefined when nothing searchable is left.
 *
 * Lenient, as search boxes pass user text straight through: it never throws. Input that does not parse
 * (an unbalanced parenthesis or quote, a dangling AND/OR/NOT, more than 32 words or 64 index tokens,
 * nesting deeper than 16) is read as plain terms instead (see `plainTerms`). Input longer than 1000
 * characters is cut to its first 1000 (back to the last space, so no word is cut in half) and read as
 * plain terms too.
 */
export function parseKeywordQuery(input: string): KeywordQuery | undefined {
  if (input.length > MAX_KEYWORDS_LENGTH) return plainTerms(cut(input));
  try {
    return new Parser(lex(input)).parse();
  } catch (error) {
    if (error instanceof Malformed) return plainTerms(input);
    throw error;
  }
}

/**
 * The fallback reading: every word is a required term (AND), `(`, `)` and `"` separate words, the
 * operator words AND, OR and NOT are dropped, `bri*` stays a prefix and a lone `*` matches all. Only
 * the first 32 searchable words and 64 index tokens count (a word is cut to the tokens left); the rest
 * are dropped, and so are repeated words.
 */
export function plainTerms(input: string): KeywordQuery | undefined {
  const terms = new TermBudget();
  const items = new Map<string, KeywordQuery>();
  for (const word of input.split(/[\s()"]+/)) {
    if (word === '' || word === 'AND' || word === 'OR' || word === 'NOT') continue;
    const item = terms.take(word, true);
    if (item === 'spent') break;
    if (item !== null) items.set(JSON.stringify(item), item);
  }
  return combine('and', [...items.values()]) ?? undefined;
}

/** The first MAX_KEYWORDS_LENGTH characters, back to the last whitespace when a word runs past the cut. */
function cut(input: string): string {
  const head = input.slice(0, MAX_KEYWORDS_LENGTH);
  if (/\s/.test(input.charAt(MAX_KEYWORDS_LENGTH))) return head;
  const lastSpace = head.search(/\s\S*$/);
  return lastSpace > 0 ? head.slice(0, lastSpace) : head;
}

/** Turns words into terms while counting them against MAX_TERMS and MAX_TOKENS. */
class TermBudget {
  private terms = 0;
  private tokens = 0;

  /**
   * The term of `word` (null when it holds nothing searchable), or 'spent' past the budget. With `cut`,
   * a word holding more tokens than are left keeps the first ones (and is no longer a prefix).
   */
  take(word: string, cut = false): KeywordQuery | null | 'spent' {
    if (this.terms >= MAX_TERMS) return 'spent';
    if (word === '*') {
      this.terms += 1;
      return { kind: 'all' };
    }
    const prefix = word.endsWith('*');
    const tokens = searchTokens(prefix ? word.slice(0, -1) : word);
    if (tokens.length === 0) return null;
    const left = MAX_TOKENS - this.tokens;
    if (left === 0 || (tokens.length > left && !cut)) return 'spent';
    const kept = tokens.slice(0, left);
    this.terms += 1;
    this.tokens += kept.length;
    return { kind: 'term', tokens: kept, prefix: prefix && kept.length === tokens.length };
  }
}

function lex(input: string): Lexeme[] {
  const lexemes: Lexeme[] = [];
  const pattern = /"([^"]*)("?)|([()])|([^\s()"]+)/g;
  for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
    if (match[1] !== undefined && match[2] === '') throw new Malformed('unmatched quote');
    if (match[1] !== undefined)
      lexemes.push({ kind: 'op', op: '(' }, ...phrase(match[1]), { kind: 'op', op: ')' });
    else if (match[3] === '(' || match[3] === ')') lexemes.push({ kind: 'op', op: match[3] });
    else if (match[4] === 'AND' || match[4] === 'OR' || match[4] === 'NOT')
      lexemes.push({ kind: 'op', op: match[4] });
    else lexemes.push({ kind: 'word', text: match[4] });
  }
  return lexemes;
}

/** Inside quotes operators are words too; an empty phrase matches like no condition. */
function phrase(text: string): Lexeme[] {
  const words = text.split(/\s+/).filter((word) => word !== '');
  return words.length === 0
    ? [{ kind: 'word', text: '' }]
    : words.map((word) => ({ kind: 'word', text: word }));
}

class Parser {
  private position = 0;
  private depth = 0;
  private readonly terms = new TermBudget();

  constructor(private readonly lexemes: Lexeme[]) {}

  parse(): KeywordQuery | undefined {
    if (this.lexemes.length === 0) return undefined;
    const query = this.or();
    if (this.lexemes[this.position] !== undefined) throw new Malformed('unmatched ")" or a stray operator');
    return query ?? undefined;
  }

  private or(): KeywordQuery | null {
    const items = [this.and()];
    while (this.takeOp('OR')) items.push(this.and());
    return combine('or', items);
  }

  private and(): KeywordQuery | null {
    const items = [this.unary()];
    for (;;) {
      if (this.takeOp('AND')) items.push(this.unary());
      else if (this.startsOperand()) items.push(this.unary());
      else break;
    }
    return combine('and', items);
  }

  private unary(): KeywordQuery | null {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new Malformed('nested too deep');
    try {
      return this.operand();
    } finally {
      this.depth -= 1;
    }
  }

  private operand(): KeywordQuery | null {
    if (this.takeOp('NOT')) {
      const item = this.unary();
      return item === null ? null : { kind: 'not', item };
    }
    const next = this.lexemes[this.position];
    if (next === undefined) throw new Malformed('ends with an operator');
    this.position += 1;
    if (next.kind === 'word') {
      const term = this.terms.take(next.text);
      if (term === 'spent') throw new Malformed('too many words');
      return term;
    }
    if (next.op !== '(') throw new Malformed(`"${next.op}" where a word was expected`);
    const inner = this.or();
    if (!this.takeOp(')')) throw new Malformed('unmatched "("');
    return inner;
  }

  private startsOperand(): boolean {
    const next = this.lexemes[this.position];
    return next !== undefined && (next.kind === 'word' || next.op === '(' || next.op === 'NOT');
  }

  private takeOp(op: string): boolean {
    const next = this.lexemes[this.position];
    if (next?.kind !== 'op' || next.op !== op) return false;
    this.position += 1;
    return true;
  }
}

/** Drops parts that held no searchable word; one part needs no wrapper. */
function combine(kind: 'and' | 'or', parts: Array<KeywordQuery | null>): KeywordQuery | null {
  const items = parts.filter((part): part is KeywordQuery => part !== null);
  if (items.length === 0) return null;
  return items.length === 1 ? items[0] : { kind, items };
}
