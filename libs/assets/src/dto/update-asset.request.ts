import { InvalidInput, parseBoolean, parsePositiveId } from '@dam/platform';
import { isRecord } from './request-fields';

/** The writable parts of an asset PUT (spec 4.5.3); every other field of the representation is ignored. */
export interface UpdateAssetRequest {
  /** Attribute id -> value; when an attribute appears twice, the later entry wins. */
  attributes: Map<number, string>;
  parents: string[] | undefined;
  submitted: boolean | undefined;
  archived: boolean | undefined;
}

export function readUpdateAssetRequest(body: unknown): UpdateAssetRequest {
  if (!isRecord(body)) throw new InvalidInput('the asset must be sent as a JSON object');
  return {
    attributes: readAttributes(body.attributes),
    parents: readParents(body.parents),
    submitted: parseBoolean(body.submitted, 'submitted'),
    archived: parseBoolean(body.archived, 'archived'),
  };
}

function readAttributes(raw: unknown): Map<number, string> {
  const attributes = new Map<number, string>();
  if (raw === undefined || raw === null) return attributes;
  if (!Array.isArray(raw)) throw new InvalidInput('attributes must be a list of {id, value}');
  for (const entry of raw) {
    if (!isRecord(entry)) throw new InvalidInput('each attribute must be an object {id, value}');
    const id = parsePositiveId(entry.id, 'an attribute id');
    const value = entry.value;
    if (value === undefined) continue;
    if (value === null) attributes.set(id, '');
    else if (typeof value === 'string') attributes.set(id, value);
    else if (typeof value === 'number' || typeof value === 'boolean') attributes.set(id, String(value));
    else throw new InvalidInput(`the value of attribute ${id} must be a string`);
  }
  return attributes;
}

function readParents(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((url) => typeof url !== 'string')) {
    throw new InvalidInput('parents must be a list of asset URLs');
  }
  return raw as string[];
}
