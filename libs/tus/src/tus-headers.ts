import { InvalidInput } from '@dam/errors';
import { parseBoolean, parsePositiveId } from '@dam/http';
import { createHash, Hash } from 'node:crypto';

/** What `Upload-Metadata` says about the content an upload becomes. */
export interface UploadTarget {
  assetId: number;
  filename: string | undefined;
  asNewVersion: boolean;
  extractEmbeddedData: boolean;
}

const MAX_METADATA_LENGTH = 8 * 1024;

/**
 * `Upload-Metadata` (tus 1.0: comma-separated `key base64value`, the value optional) as a map. A malformed
 * header is a 400.
 */
export function parseUploadMetadata(raw: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  if (raw === undefined || raw.trim() === '') return pairs;
  if (raw.length > MAX_METADATA_LENGTH) throw new InvalidInput('the Upload-Metadata header is too long');
  for (const pair of raw.split(',')) {
    const match = /^\s*([^\s,]+)(?: ([A-Za-z0-9+/]*={0,2}))?\s*$/.exec(pair);
    if (match === null || pairs.has(match[1])) {
      throw new InvalidInput('the Upload-Metadata header must be comma-separated "key base64value" pairs');
    }
    pairs.set(match[1], Buffer.from(match[2] ?? '', 'base64').toString('utf8'));
  }
  return pairs;
}

/**
 * The asset a new upload becomes the content of (`assetId`, required), its file name (`filename`), and the
 * content PUT's options (`asNewVersion`, `extractEmbeddedData`: true or false).
 */
export function uploadTargetOrThrow(metadata: Map<string, string>): UploadTarget {
  const rawId = metadata.get('assetId');
  if (rawId === undefined) throw new InvalidInput('Upload-Metadata must name the asset: assetId <base64 id>');
  const assetId = parsePositiveId(rawId, 'assetId in Upload-Metadata');
  const filename = metadata.get('filename');
  return {
    assetId,
    filename: filename === undefined || filename.trim() === '' ? undefined : filename,
    asNewVersion: parseBoolean(metadata.get('asNewVersion'), 'asNewVersion in Upload-Metadata') ?? false,
    extractEmbeddedData:
      parseBoolean(metadata.get('extractEmbeddedData'), 'extractEmbeddedData in Upload-Metadata') ?? false,
  };
}

/** tus checksum extension: the algorithms offered (Tus-Checksum-Algorithm), with node's names. */
export const CHECKSUM_ALGORITHMS: Record<string, string> = { md5: 'md5', sha1: 'sha1', sha256: 'sha256' };

export interface UploadChecksum {
  algorithm: string;
  expected: Buffer;
  hash(): Hash;
}

/** `Upload-Checksum: <algorithm> <base64>`, or undefined when absent; an unknown algorithm is a 400. */
export function parseUploadChecksum(raw: string | undefined): UploadChecksum | undefined {
  if (raw === undefined) return undefined;
  const match = /^\s*([a-z0-9-]+) ([A-Za-z0-9+/]+={0,2})\s*$/.exec(raw);
  if (match === null) throw new InvalidInput('Upload-Checksum must be "<algorithm> <base64 digest>"');
  const algorithm = match[1];
  const node = CHECKSUM_ALGORITHMS[algorithm];
  if (node === undefined) {
    throw new InvalidInput(
      `unsupported checksum algorithm ${algorithm}: use one of ${Object.keys(CHECKSUM_ALGORITHMS).join(', ')}`,
    );
  }
  return { algorithm, expected: Buffer.from(match[2], 'base64'), hash: () => createHash(node) };
}
