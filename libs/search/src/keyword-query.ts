import { TermQuery } from '@dam/assets';
import { InvalidInput, searchTokens } from '@dam/platform';

/**
 * A parsed keyword query: the assets area's TermQuery. A term holds the index tokens of one word as the
 * index keeps them (a word such as `O'Brien` is two tokens, all required); `prefix` makes the last token
 * a prefix (`bri*`). `all` is the lone `*`.
 */
export type KeywordQuery = TermQuery;

const MAX_TERMS = 32;
const MAX_LENGTH = 1000;

type Lexeme = { kind: 'word'; text: string } | { kind: 'op'; op: 'AND' | 'OR' | 'NOT' | '(' | ')' };

/**
 * Parses `bridge river`, `bridge AND (river OR canal)`, `bridge NOT river`, `bri*`, `"tower bridge"`.
 * Operators are upper case (`and` is a word); words side by side mean AND; NOT binds tightest, then
 * AND, then OR. A quoted phrase requires all its words. Words with no letters or digits are dropped.
 * Returns undefined when nothing searchable is left. Malformed input is a 400 naming `parameter`.
 */
export function parseKeywordQuery(input: string, parameter = 'keywords'): KeywordQuery | undefined {
  if (input.length > MAX_LENGTH)
    throw new InvalidInput(`${parameter} must be at most ${MAX_LENGTH} characters`);
  const parser = new Parser(lex(input), parameter);
  return parser.parse();
}

function lex(input: string): Lexeme[] {
  const lexemes: Lexeme[] = [];
  const pattern = /"([^"]*)"?|([()])|([^\s()"]+)/g;
  for (let match = pattern.exec(input); match !== null; match = pattern.exec(input)) {
    if (match[1] !== undefined)
      lexemes.push({ kind: 'op', op: '(' }, ...phrase(match[1]), { kind: 'op', op: ')' });
    else if (match[2] === '(' || match[2] === ')') lexemes.push({ kind: 'op', op: match[2] });
    else if (match[3] === 'AND' || match[3] === 'OR' || match[3] === 'NOT')
      lexemes.push({ kind: 'op', op: match[3] });
    else lexemes.push({ kind: 'word', text: match[3] });
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
  private terms = 0;

  constructor(
    private readonly lexemes: Lexeme[],
    private readonly parameter: string,
  ) {}

  parse(): KeywordQuery | undefined {
    if (this.lexemes.length === 0) return undefined;
    const query = this.or();
    const rest = this.lexemes[this.position];
    if (rest !== undefined)
      this.fail(rest.kind === 'op' && rest.op === ')' ? 'has an unmatched ")"' : 'is malformed');
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
    if (this.takeOp('NOT')) {
      const item = this.unary();
      return item === null ? null : { kind: 'not', item };
    }
    const next = this.lexemes[this.position];
    if (next === undefined) return this.fail('ends with an operator');
    this.position += 1;
    if (next.kind === 'word') return this.term(next.text);
    if (next.op !== '(') return this.fail(`has "${next.op}" where a word was expected`);
    const inner = this.or();
    if (!this.takeOp(')')) this.fail('has an unmatched "("');
    return inner;
  }

  private term(word: string): KeywordQuery | null {
    this.terms += 1;
    if (this.terms > MAX_TERMS) this.fail(`has more than ${MAX_TERMS} words`);
    if (word === '*') return { kind: 'all' };
    const prefix = word.endsWith('*');
    const tokens = searchTokens(prefix ? word.slice(0, -1) : word);
    return tokens.length === 0 ? null : { kind: 'term', tokens, prefix };
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

  private fail(problem: string): never {
    throw new InvalidInput(`${this.parameter} ${problem}`);
  }
}

/** Drops parts that held no searchable word; one part needs no wrapper. */
function combine(kind: 'and' | 'or', parts: Array<KeywordQuery | null>): KeywordQuery | null {
  const items = parts.filter((part): part is KeywordQuery => part !== null);
  if (items.length === 0) return null;
  return items.length === 1 ? items[0] : { kind, items };
}
