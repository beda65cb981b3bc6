import { Injectable, Logger } from '@nestjs/common';
import { parseValue } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { ObjectStorage } from '@dam/storage';
import {
  AttributeType,
  AttributeTypeId,
  AttributesCatalog,
  EmbeddedDataMappingDefinition,
} from '@dam/attributes';
import { LanguageService } from '@dam/i18n';
import { FileValue } from './asset-files.repository';
import { ContentObjects } from './content-objects';
import { previewSourceOf } from './content-types';
import { ImageInput, ImageInputs } from './image-inputs';
import { Ffmpeg } from './previews/ffmpeg';
import { ffmpegOf } from './previews/media-previews';

/**
 * EXIF, IPTC and XMP sit near the start of the files that carry them: only this much is read (one ranged
 * read of the store), whatever the size of the file.
 */
export const EMBEDDED_DATA_PREFIX_BYTES = 256 * 1024;

type Exifr = typeof import('exifr').default;
let exifrLoading: Promise<Exifr> | undefined;

/** exifr, loaded on first use: most uploads ask for no embedded data. */
function loadExifr(): Promise<Exifr> {
  exifrLoading ??= import('exifr').then((module) => module.default);
  return exifrLoading;
}

/** The exifr output blocks each mapping type reads from. */
const BLOCKS: Record<string, string[]> = {
  EXIF: ['ifd0', 'exif', 'gps', 'ifd1', 'interop'],
  IPTC: ['iptc'],
  XMP: ['xmp'],
  VIDEO: ['video'],
};

type Block = Record<string, unknown>;

/**
 * Values for attributes from the embedded metadata of a stored file, following the embedded-data
 * mappings whose direction reads embedded data (`embed-to-attribute`, `both`). A video's facts (`VIDEO`
 * mappings) come from `ffmpeg -i` as the renditions run it (same binary and limits), on the store's own
 * file or a copy bounded by DAM_RENDITION_MAX_INPUT_BYTES. Unreadable metadata, a failed probe and values
 * an attribute cannot hold are skipped: extraction never fails an upload.
 */
@Injectable()
export class EmbeddedDataReader {
  private readonly logger = new Logger('EmbeddedData');
  private readonly inputs: ImageInputs;
  private readonly ffmpeg: Ffmpeg;

  constructor(
    private readonly objects: ContentObjects,
    private readonly catalog: AttributesCatalog,
    private readonly languages: LanguageService,
    storage: ObjectStorage,
    config: AppConfig,
  ) {
    this.inputs = new ImageInputs(storage, config);
    this.ffmpeg = ffmpegOf(config);
  }

  async valuesOf(key: string, size: number, contentType: string): Promise<FileValue[]> {
    const mappings = (await this.catalog.embeddedDataMappings()).filter((mapping) =>
      ['embed-to-attribute', 'both'].includes(mapping.mappingDirection),
    );
    if (mappings.length === 0) return [];
    const metadata =
      (await this.parse(await this.objects.prefix(key, size, EMBEDDED_DATA_PREFIX_BYTES))) ?? {};
    const probed =
      previewSourceOf(contentType) === 'video' &&
      mappings.some((mapping) => mapping.type.toUpperCase() === 'VIDEO');
    if (probed) metadata.video = await this.videoFacts(key);
    if (Object.values(metadata).every((block) => block === undefined)) return [];
    const attributes = await this.catalog.byIds(
      mappings.map((mapping) => mapping.attributeId),
      this.languages.readLanguage(),
    );
    const values = new Map<number, string>();
    for (const mapping of mappings) {
      const attribute = attributes.find((candidate) => candidate.id === mapping.attributeId);
      if (attribute === undefined || attribute.isReadOnly || values.has(attribute.id)) continue;
      const raw = lookup(metadata, mapping);
      const text = raw === undefined ? undefined : asText(raw, attribute.typeId);
      if (text === undefined || text === '') continue;
      const parsed = parseValue(attribute.typeId, text);
      if (parsed.ok) values.set(attribute.id, parsed.stored);
    }
    return [...values].map(([attributeId, value]) => ({ attributeId, value }));
  }

  private async parse(prefix: Buffer): Promise<Block | undefined> {
    try {
      const exifr = await loadExifr();
      const output: unknown = await exifr.parse(prefix, {
        tiff: true,
        exif: true,
        gps: true,
        iptc: true,
        xmp: true,
        mergeOutput: false,
        reviveValues: true,
      });
      return isBlock(output) ? output : undefined;
    } catch (error) {
      this.logger.debug(`no embedded data: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** Duration (seconds, as ffmpeg gives them: to the hundredth), width, height and codec of a video. */
  private async videoFacts(key: string): Promise<Block | undefined> {
    let input: ImageInput | undefined;
    try {
      input = await this.inputs.open(key);
      const facts = await this.ffmpeg.probe(input.path);
      if (facts === undefined) return undefined;
      const { durationSeconds, width, height, codec } = facts;
      const duration = durationSeconds === undefined ? undefined : Math.round(durationSeconds * 100) / 100;
      return { duration, width, height, codec };
    } catch (error) {
      this.logger.log(`no video facts: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      await input?.release();
    }
  }
}

/** The tag in the blocks of the mapping's type; XMP tags may be given with or without their prefix. */
function lookup(metadata: Block, mapping: EmbeddedDataMappingDefinition): unknown {
  const wanted = mapping.tagName.toLowerCase();
  const bare = wanted.includes(':') ? wanted.slice(wanted.indexOf(':') + 1) : wanted;
  for (const name of BLOCKS[mapping.type.toUpperCase()] ?? []) {
    const found = find(metadata[name], [wanted, bare], 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

function find(block: unknown, names: string[], depth: number): unknown {
  if (!isBlock(block) || depth > 2) return undefined;
  for (const [key, value] of Object.entries(block)) {
    if (names.includes(key.toLowerCase())) return value;
  }
  for (const value of Object.values(block)) {
    const found = find(value, names, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The value as a client would type it for an attribute of `typeId` (DESIGN §6 formats). */
function asText(value: unknown, typeId: AttributeTypeId): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const pad = (n: number): string => String(n).padStart(2, '0');
    const date = `${pad(value.getDate())}/${pad(value.getMonth() + 1)}/${value.getFullYear()}`;
    const time = `${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`;
    if (typeId === AttributeType.Date) return date;
    if (typeId === AttributeType.Time) return time;
    return `${date} ${time}`;
  }
  if (Array.isArray(value)) {
    const parts = value.map((item) => asText(item, AttributeType.Text)).filter((item) => item !== undefined);
    return parts.join(', ');
  }
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isBlock(value) && typeof value.value === 'string') return value.value.trim();
  return undefined;
}

function isBlock(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
