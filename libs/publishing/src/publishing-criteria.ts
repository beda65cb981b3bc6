import { InvalidInput } from '@dam/errors';
import { QueryParams } from '@dam/http';
import { parseSearchCriteria, PRESENTATION_PARAMETERS, SearchCriteria } from '@dam/search';

const MAX_CRITERIA_LENGTH = 8000;

/**
 * The criteria of a publishing action: the query string of an asset search (`keywords=x&attribute_5=y`,
 * a leading `?` allowed) or a JSON object of the same parameters. Stored as a canonical query string.
 * Whose eyes, order and page are not criteria: an action always evaluates as the application user.
 */
export function canonicalCriteria(raw: unknown): string {
  let params: QueryParams;
  if (typeof raw === 'string') params = QueryParams.fromQueryString(raw.replace(/^\?/, ''));
  else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    params = QueryParams.fromObject(raw as Record<string, unknown>, 'criteria');
  } else {
    throw new InvalidInput('criteria must be an asset-search query string or an object of its parameters');
  }
  const refused = params.names().filter((name) => PRESENTATION_PARAMETERS.includes(name));
  if (refused.length > 0) {
    throw new InvalidInput(
      `criteria may not contain ${refused.join(', ')}: actions search as the application user, all pages`,
    );
  }
  parseSearchCriteria(params);
  const canonical = params.toQueryString();
  if (canonical.length > MAX_CRITERIA_LENGTH)
    throw new InvalidInput(`criteria must be at most ${MAX_CRITERIA_LENGTH} characters`);
  return canonical;
}

export function storedCriteria(criteria: string): SearchCriteria {
  return parseSearchCriteria(QueryParams.fromQueryString(criteria));
}
