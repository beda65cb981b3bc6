import { InvalidInput } from '@dam/errors';
import { parseBoolean, parsePositiveId } from '@dam/http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { parseStringPromise } from 'xml2js';
import { AccessLevelRefSchema } from '../assets.api';
import { isRecord } from './request-fields';

/**
 * `POST /rest/assets`, JSON or a `createAsset` XML document (shaped by `createAssetJsonShape`). Only the
 * fields are declared (others are stripped); `readCreateAssetRequest` checks them, with exact messages.
 */
export class CreateAssetDto {
  @ApiProperty({ description: 'the access levels, at least one, as `[{id}]`', type: [AccessLevelRefSchema] })
  @Allow()
  accessLevels?: unknown;

  @ApiPropertyOptional({
    description: 'the id of the user to create the asset as',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  })
  @Allow()
  createAsUserId?: unknown;

  @ApiPropertyOptional({ description: 'true (the default) or false', type: Boolean })
  @Allow()
  submit?: unknown;

  @ApiPropertyOptional({
    description: 'the URL of an asset type; required when asset types are enabled',
    type: String,
    format: 'uri',
  })
  @Allow()
  assetTypeUrl?: unknown;
}

/** Spec 2.5, read from JSON or XML. */
export interface CreateAssetRequest {
  accessLevelIds: number[];
  createAsUserId: unknown;
  submit: boolean;
  assetTypeUrl: string | undefined;
}

/**
 * The JSON shape of a create-asset body (for XmlBodyInterceptor). XML arrives as a string (the
 * platform's body parser); no body is an empty request.
 */
export async function createAssetJsonShape(body: unknown): Promise<Record<string, unknown>> {
  if (typeof body === 'string') return xmlToJsonShape(body);
  if (body === undefined || body === null) return {};
  if (!isRecord(body))
    throw new InvalidInput('the create-asset request must be a JSON object or a createAsset XML document');
  return body;
}

/** Reads a create-asset request from its DTO (any JSON shape of it). */
export function readCreateAssetRequest(body: CreateAssetDto): CreateAssetRequest {
  const levels = Array.isArray(body.accessLevels) ? body.accessLevels : [];
  const accessLevelIds = levels.map((level) =>
    parsePositiveId(isRecord(level) ? level.id : level, 'an access level id'),
  );
  const assetTypeUrl = body.assetTypeUrl;
  if (assetTypeUrl !== undefined && assetTypeUrl !== null && typeof assetTypeUrl !== 'string') {
    throw new InvalidInput('assetTypeUrl must be the URL of an asset type');
  }
  return {
    accessLevelIds: [...new Set(accessLevelIds)],
    createAsUserId: body.createAsUserId,
    submit: parseBoolean(body.submit, 'submit') ?? true,
    assetTypeUrl: assetTypeUrl === null || assetTypeUrl === '' ? undefined : assetTypeUrl,
  };
}

/**
 * A document type or entity declaration is refused before any parsing, so no entity can ever be
 * resolved or expanded.
 */
export async function xmlToJsonShape(xml: string): Promise<Record<string, unknown>> {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new InvalidInput('XML documents with a DOCTYPE or ENTITY declaration are not accepted');
  }
  let document: unknown;
  try {
    document = await parseStringPromise(xml, { explicitArray: true, explicitRoot: true, strict: true });
  } catch {
    throw new InvalidInput('the XML request body could not be parsed');
  }
  const root = isRecord(document) ? document.createAsset : undefined;
  if (root === undefined) throw new InvalidInput('the XML request must have the root element createAsset');
  const fields = first(root);
  if (!isRecord(fields)) return {};
  const levelNodes = isRecord(first(fields.accessLevels))
    ? (first(fields.accessLevels) as Record<string, unknown>)
    : {};
  const levels = Array.isArray(levelNodes.accessLevel) ? levelNodes.accessLevel : [];
  return {
    accessLevels: levels.map((level) => ({ id: text(isRecord(level) ? level.id : undefined) })),
    createAsUserId: text(fields.createAsUserId),
    submit: text(fields.submit),
    assetTypeUrl: text(fields.assetTypeUrl),
  };
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/** The text of an element: xml2js gives a string, or `{_: text, $: attributes}` when it has attributes. */
function text(node: unknown): string | undefined {
  const value = first(node);
  if (typeof value === 'string') return value.trim();
  if (isRecord(value) && typeof value._ === 'string') return value._.trim();
  return undefined;
}
