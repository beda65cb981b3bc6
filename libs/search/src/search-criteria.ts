import { IdRange, TimeBound } from '@dam/assets';
import { InvalidInput } from '@dam/errors';
import { parseBoolean, parseOptionalId, QueryParams } from '@dam/http';
import { KeywordQuery, parseKeywordQuery } from './keyword-query';

export interface AttributeFilter {
  attributeId: number;
  value: string;
}

export type ApprovalStatus = 'full' | 'none';

/** Everything `GET /rest/asset-search` can ask, checked for form (not yet against the database). */
export interface SearchCriteria {
  keywords?: KeywordQuery;
  attributes: AttributeFilter[];
  attributeConjunction: 'AND' | 'OR';
  assetIds: IdRange[];
  assetTypeId?: number;
  /** Lower-case hex, distinct, at most MAX_CONTENT_DIGESTS: the content has one of them. */
  contentSha256: string[];
  filename?: string;
  dateAdded: TimeBound[];
  dateModified: TimeBound[];
  descriptiveCategoryIds: number[];
  permissionCategoryIds: number[];
  includeImplicitCategoryMembers: boolean;
  approvalStatuses: ApprovalStatus[];
  unsubmitted?: boolean;
  parentIds: number[];
}

export interface SearchOrder {
  sortAttributeId?: number;
  descending: boolean;
}

/** The parameters that choose whose eyes, which order and which page rather than which assets. */
export const PRESENTATION_PARAMETERS = [
  'userId',
  'username',
  'sortAttributeId',
  'sortDescending',
  'page',
  'pageSize',
  'cursor',
  'count',
  'facets',
  'facetLimit',
];

const MAX_ID = 2_147_483_647;
/**
 * Digests one search may ask for (`contentSha256=a&contentSha256=b`, or `a,b`; `dam import` sends this
 * many). Bounded so that the answer's Link header, which repeats the query in up to four links, stays
 * well within the 16 KiB of headers an HTTP client such as Node's reads.
 */
export const MAX_CONTENT_DIGESTS = 40;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Reads the criteria; unknown parameters are ignored, as Asset Bank's front-end ones are. */
export function parseSearchCriteria(params: QueryParams): SearchCriteria {
  const conjunction = (params.single('attributeQueryConjunction') ?? 'AND').toUpperCase();
  if (conjunction !== 'AND' && conjunction !== 'OR') {
    throw new InvalidInput('attributeQueryConjunction must be AND or OR');
  }
  const keywords = params.single('keywords');
  return {
    keywords: keywords === undefined ? undefined : parseKeywordQuery(keywords),
    attributes: attributeFilters(params),
    attributeConjunction: conjunction,
    assetIds: params.list('assetIds').map(idRange),
    assetTypeId: positiveId(params.single('assetTypeId'), 'assetTypeId'),
    contentSha256: contentDigests(params.list('contentSha256')),
    filename: params.single('filename'),
    dateAdded: bounds(params, 'dateAddedLower', 'dateAddedUpper'),
    dateModified: bounds(params, 'dateModLower', 'dateModUpper'),
    descriptiveCategoryIds: ids(params, 'descriptiveCategoryForm.categoryIds'),
    permissionCategoryIds: ids(params, 'permissionCategoryForm.categoryIds'),
    includeImplicitCategoryMembers:
      parseBoolean(params.single('includeImplicitCategoryMembers'), 'includeImplicitCategoryMembers') ??
      false,
    approvalStatuses: approvalStatuses(params),
    unsubmitted: parseBoolean(params.single('unsubmitted'), 'unsubmitted'),
    parentIds: ids(params, 'parentIds'),
  };
}

export function parseSearchOrder(params: QueryParams): SearchOrder {
  return {
    sortAttributeId: positiveId(params.single('sortAttributeId'), 'sortAttributeId'),
    descending: parseBoolean(params.single('sortDescending'), 'sortDescending') ?? false,
  };
}

function attributeFilters(params: QueryParams): AttributeFilter[] {
  const filters: AttributeFilter[] = [];
  for (const [name, value] of params.entries()) {
    if (!name.startsWith('attribute_') || value.trim() === '') continue;
    const match = /^attribute_(\d{1,10})$/.exec(name);
    const attributeId = match === null ? NaN : Number(match[1]);
    if (!(attributeId >= 1 && attributeId <= MAX_ID)) {
      throw new InvalidInput(`${truncate(name)} is not a search parameter: use attribute_<id>`);
    }
    filters.push({ attributeId, value });
  }
  return filters;
}

/** `5` or `2-9`; a range must not run backwards. */
function idRange(raw: string): IdRange {
  const match = /^(\d{1,10})(?:\s*-\s*(\d{1,10}))?$/.exec(raw);
  const from = match === null ? NaN : Number(match[1]);
  const to = match?.[2] === undefined ? from : Number(match[2]);
  if (!(from >= 1 && from <= MAX_ID && to >= 1 && to <= MAX_ID)) {
    throw new InvalidInput(`assetIds must be an id or a range of ids such as 2-9, not "${truncate(raw)}"`);
  }
  if (from > to) throw new InvalidInput(`assetIds range ${from}-${to} runs backwards: write ${to}-${from}`);
  return { from, to };
}

/** Each 64 hexadecimal digits in either case, as lower case (the stored form), distinct. */
function contentDigests(values: string[]): string[] {
  for (const raw of values) {
    if (!/^[0-9a-fA-F]{64}$/.test(raw)) {
      throw new InvalidInput(
        `contentSha256 must be a SHA-256 as 64 hexadecimal digits, not "${truncate(raw)}"`,
      );
    }
  }
  const digests = [...new Set(values.map((raw) => raw.toLowerCase()))];
  if (digests.length > MAX_CONTENT_DIGESTS) {
    throw new InvalidInput(
      `contentSha256 takes at most ${MAX_CONTENT_DIGESTS} digests in one search, not ${digests.length}`,
    );
  }
  return digests;
}

function ids(params: QueryParams, name: string): number[] {
  return [...new Set(params.list(name).map((raw) => positiveId(raw, name) ?? 0))].filter((id) => id > 0);
}

function positiveId(raw: string | undefined, name: string): number | undefined {
  const id = parseOptionalId(raw, name);
  if (id !== undefined && id < 1) throw new InvalidInput(`${name} must be a positive whole number`);
  return id;
}

function approvalStatuses(params: QueryParams): ApprovalStatus[] {
  const statuses = params.list('approvalStatuses').map((raw) => raw.toLowerCase());
  for (const status of statuses) {
    if (status !== 'full' && status !== 'none') {
      throw new InvalidInput(`approvalStatuses must be full or none, not "${truncate(status)}"`);
    }
  }
  return [...new Set(statuses as ApprovalStatus[])];
}

function bounds(params: QueryParams, lowerName: string, upperName: string): TimeBound[] {
  const result: TimeBound[] = [];
  const lower = params.single(lowerName);
  if (lower !== undefined) result.push({ op: '>=', at: isoInstant(lower, lowerName).at });
  const upper = params.single(upperName);
  if (upper !== undefined) {
    const { at, dateOnly } = isoInstant(upper, upperName);
    result.push(dateOnly ? { op: '<', at: new Date(at.getTime() + 86_400_000) } : { op: '<=', at });
  }
  return result;
}

/** ISO-8601 date or date-time; without a zone it is UTC, as every stored time is. */
export function isoInstant(raw: string, name: string): { at: Date; dateOnly: boolean } {
  const match = ISO.exec(raw.trim());
  const fail = (): never => {
    throw new InvalidInput(
      `${name} must be an ISO-8601 date or date-time such as 2024-05-31 or 2024-05-31T14:30:00Z`,
    );
  };
  if (match === null) return fail();
  const [, year, month, day, hours, minutes, seconds, fraction, zone] = match;
  const dateOnly = hours === undefined;
  const offset = zone === undefined || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const text = `${year}-${month}-${day}T${hours ?? '00'}:${minutes ?? '00'}:${seconds ?? '00'}${fraction ?? ''}${offset}`;
  const at = new Date(text);
  const sameDay = at.getTime() === at.getTime() && checkDate(Number(year), Number(month), Number(day));
  if (!sameDay || Number(hours ?? 0) > 23 || Number(minutes ?? 0) > 59 || Number(seconds ?? 0) > 59) fail();
  return { at, dateOnly };
}

function checkDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function truncate(value: string): string {
  return value.length > 60 ? `${value.slice(0, 60)}...` : value;
}
