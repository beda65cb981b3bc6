import { Injectable } from '@nestjs/common';
import { UrlService } from '@dam/platform';
import { TempChunkedFileEntity } from './entities/temp-chunked-file.entity';

export interface TempChunkedFileRepresentation {
  url: string;
  id: string;
}

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
