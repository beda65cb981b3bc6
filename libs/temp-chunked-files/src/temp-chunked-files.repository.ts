import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '@dam/database';
import { DataSource, In, LessThan, MoreThan } from 'typeorm';
import { TempChunkEntity } from './entities/temp-chunk.entity';
import { TempChunkedFileEntity } from './entities/temp-chunked-file.entity';

export interface ChunkWrite {
  fileId: string;
  index: number;
  storageKey: string;
  size: number;
  sha256: string;
  at: Date;
}

/** The outcome of pointing a chunk at a new object. */
export type ChunkSwitch =
  | { switched: true; replacedKey: string | undefined }
  /** The file was deleted (or purged) while the chunk was uploading. */
  | { switched: false };

/** Each attempt loses only to another writer that committed in between; this many means something is wrong. */
const MAX_SWITCH_ATTEMPTS = 100;

/** All TypeORM access for temp chunked files and their chunks. */
@Injectable()
export class TempChunkedFilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get files() {
    return this.dataSource.getRepository(TempChunkedFileEntity);
  }

  private get chunks() {
    return this.dataSource.getRepository(TempChunkEntity);
  }

  async insert(file: TempChunkedFileEntity): Promise<void> {
    await this.files.insert(file);
  }

  findById(id: string): Promise<TempChunkedFileEntity | null> {
    return this.files.findOneBy({ id });
  }

  /** Marks the file as used now; false when it no longer exists. */
  async touch(id: string, at: Date): Promise<boolean> {
    const result = await this.files.update({ id }, { touchedAt: at });
    return (result.affected ?? 0) > 0;
  }

  listChunks(fileId: string): Promise<TempChunkEntity[]> {
    return this.chunks.find({ where: { tempFileId: fileId }, order: { chunkIndex: 'ASC' } });
  }

  /**
   * Points chunk (file, index) at a newly written object, atomically: an insert when the chunk is new,
   * else a compare-and-swap on the previous key. Each statement is atomic on its own, so concurrent
   * uploads of one index need no transaction and cannot deadlock: the last to commit wins, and exactly
   * one writer learns each replaced key (to delete its object). The primary key (file, index) keeps one
   * row per index; the foreign key refuses chunks of a file deleted meanwhile.
   */
  async switchChunk(chunk: ChunkWrite): Promise<ChunkSwitch> {
    const where = { tempFileId: chunk.fileId, chunkIndex: chunk.index };
    const columns = {
      storageKey: chunk.storageKey,
      size: chunk.size,
      sha256: chunk.sha256,
      updatedAt: chunk.at,
    };
    for (let attempt = 0; attempt < MAX_SWITCH_ATTEMPTS; attempt++) {
      const current = await this.chunks.findOne({ select: { storageKey: true }, where });
      if (current !== null) {
        const updated = await this.chunks.update({ ...where, storageKey: current.storageKey }, columns);
        if ((updated.affected ?? 0) > 0) return { switched: true, replacedKey: current.storageKey };
        continue; // another upload replaced it (or the file went) since we read it
      }
      try {
        await this.chunks.insert({ ...where, ...columns });
        return { switched: true, replacedKey: undefined };
      } catch (error) {
        if (isForeignKeyViolation(error)) return { switched: false };
        if (!isUniqueViolation(error)) throw error;
        // another upload of this index inserted first: replace theirs
      }
    }
    throw new Error(`chunk ${chunk.index} of temp file ${chunk.fileId}: too many concurrent replacements`);
  }

  /** Deletes the file row (its chunk rows go with it); false when it did not exist. */
  async delete(id: string): Promise<boolean> {
    const result = await this.files.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** Files untouched since before `cutoff`, oldest first. */
  async findStaleIds(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.files.find({
      select: { id: true },
      where: { touchedAt: LessThan(cutoff) },
      order: { touchedAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Deletes the file only if it is still untouched since before `cutoff` (a chunk upload may have just come). */
  async deleteIfStale(id: string, cutoff: Date): Promise<boolean> {
    const result = await this.files.delete({ id, touchedAt: LessThan(cutoff) });
    return (result.affected ?? 0) > 0;
  }

  /** Which of `keys` a chunk row refers to (asked by the orphan sweep). */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.chunks.find({ select: { storageKey: true }, where: { storageKey: In(keys) } });
    return new Set(rows.map((row) => row.storageKey));
  }

  /** Every key a chunk row refers to, read by file in pages. */
  async *chunkKeys(pageSize = 200): AsyncGenerator<string> {
    for (let afterId = ''; ;) {
      const files = await this.files.find({
        select: { id: true },
        where: { id: MoreThan(afterId) },
        order: { id: 'ASC' },
        take: pageSize,
      });
      const ids = files.map((file) => file.id);
      if (ids.length > 0) {
        const chunks = await this.chunks.find({
          select: { storageKey: true },
          where: { tempFileId: In(ids) },
        });
        for (const chunk of chunks) yield chunk.storageKey;
      }
      if (ids.length < pageSize) return;
      afterId = ids[ids.length - 1];
    }
  }

  /** Which of `ids` name existing files. */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.files.find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(rows.map((row) => row.id));
  }
}
