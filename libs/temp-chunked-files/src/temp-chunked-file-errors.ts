import { InvalidInput, TooLarge, UnknownResource } from '@dam/errors';

/** 404: no such temp chunked file, or not the actor's (ids never leak). Long ids are cut in the message. */
export class TempFileNotFound extends UnknownResource {
  constructor(id: string) {
    super(`temp chunked file ${id.slice(0, 40)} does not exist`);
  }
}

/** 400: a content upload names a temp chunked file that does not exist or is not the actor's. */
export class TempFileNotUsable extends InvalidInput {
  constructor(id: string) {
    super(`temp chunked file ${id.slice(0, 40)} does not exist or is not yours`);
  }
}

/** 400: a value that should be a temp chunked file URL names something else. */
export class NotATempFileUrl extends InvalidInput {
  constructor(url: unknown) {
    const shown = typeof url === 'string' ? `"${url.slice(0, 200)}"` : 'the value';
    super(`${shown} is not a temp chunked file URL`);
  }
}

/** 413: a chunk larger than DAM_MAX_CHUNK_BYTES allows. */
export class ChunkTooLarge extends TooLarge {
  constructor(max: number) {
    super(`a chunk may hold at most ${max} bytes`);
  }
}
