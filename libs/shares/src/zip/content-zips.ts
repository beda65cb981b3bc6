import { Injectable } from '@nestjs/common';
import { DownloadableContent } from '@dam/asset-content';
import { ObjectStorage } from '@dam/storage';
import { ZipOutput, zipStream } from './zip-stream';

/** ZIPs of asset content, each object read as a stream from the store when the archive reaches it. */
@Injectable()
export class ContentZips {
  constructor(private readonly storage: ObjectStorage) {}

  zipOf(contents: readonly DownloadableContent[]): Promise<ZipOutput> {
    return zipStream(
      contents.map((content) => ({
        filename: content.filename,
        size: content.size,
        open: () => this.storage.get(content.storageKey),
      })),
    );
  }
}
