const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Chunk numbers run from 0 to this. */
export const MAX_CHUNK_INDEX = 99_999;

/** Temp file ids are lowercase random UUIDs (v4), as `crypto.randomUUID()` makes them. */
export function isTempFileId(value: string): boolean {
  return UUID_V4.test(value);
}

/** Where the chunks of a temp file are stored; nothing else lives under it. */
export function tempFilePrefix(id: string): string {
  return `temp/${id}/`;
}
