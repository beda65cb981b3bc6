import { InvalidInput } from '@dam/errors';
import { parseBoolean, parsePositiveId, readXmlRepresentation } from '@dam/http';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { ASSET_XML } from '../asset.mapper';
import { AttributeValueWriteSchema } from '../assets.api';
import { isRecord } from './request-fields';

/**
 * `PUT /rest/assets/{id}`: the writable fields of the representation; the others are stripped (they were
 * always ignored). `readUpdateAssetRequest` checks them, with exact messages.
 */
export class UpdateAssetDto {
  @ApiPropertyOptional({
    description: 'a list of {id, value}; a null value clears the attribute',
    type: [AttributeValueWriteSchema],
  })
  @Allow()
  attributes?: unknown;

  @ApiPropertyOptional({ description: 'a list of asset URLs', type: [String] })
  @Allow()
  parents?: unknown;

  @ApiPropertyOptional({
    description: 'true submits the asset; an asset cannot be unsubmitted',
    type: Boolean,
  })
  @Allow()
  submitted?: unknown;

  @ApiPropertyOptional({ description: 'administrators only', type: Boolean })
  @Allow()
  archived?: unknown;
}

/** The writable parts of an asset PUT (spec 4.5.3); every other field of the representation is ignored. */
export interface UpdateAssetRequest {
  /** Attribute id -> value; when an attribute appears twice, the later entry wins. */
  attributes: Map<number, string>;
  parents: string[] | undefined;
  submitted: boolean | undefined;
  archived: boolean | undefined;
}

/**
 * The JSON shape of an update body (for XmlBodyInterceptor): a JSON object, or an `asset` XML document
 * (a string from the platform's body parser), such as `GET /rest/assets/{id}` answers as XML, read back
 * with the asset's XML mapping (`ASSET_XML`; DOCTYPE and ENTITY declarations are refused). No body or a
 * JSON array is refused.
 */
export async function updateAssetJsonShape(body: unknown): Promise<Record<string, unknown>> {
  if (typeof body === 'string') return readXmlRepresentation(body, ASSET_XML);
  if (!isRecord(body))
    throw new InvalidInput('the asset must be sent as a JSON object or an asset XML document');
  return body;
}

export function readUpdateAssetRequest(body: UpdateAssetDto): UpdateAssetRequest {
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
