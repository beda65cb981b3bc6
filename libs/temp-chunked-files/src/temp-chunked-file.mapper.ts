import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { TempChunkedFileEntity } from './entities/temp-chunked-file.entity';

export interface TempChunkedFileRepresentation {
  url: string;
  id: string;
}

/** XML (DESIGN §3): `<tempChunkedFile>`; a stored chunk's answer is `<chunk>`. */
export const TEMP_CHUNKED_FILE_XML = xmlMapping('tempChunkedFile');
export const CHUNK_XML = xmlMapping('chunk');

@Injectable()
export class TempChunkedFileMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: string): string {
    return this.urls.rest('temp-chunked-files', id);
  }

  toRepresentation(file: TempChunkedFileEntity): TempChunkedFileRepresentation {
    return { url: this.url(file.id), id: file.id };
  }
}
