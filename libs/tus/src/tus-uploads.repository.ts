import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUniqueViolation } from '@dam/database';
import { DataSource, In, IsNull, LessThan, Not } from 'typeorm';
import { TusLockEntity } from './entities/tus-lock.entity';
import { TusUploadEntity } from './entities/tus-upload.entity';

/** What a lock's holder learns at its heartbeat. */
export type LockState = 'held' | 'release-requested' | 'lost';

/** All TypeORM access for tus uploads and their locks. */
@Injectable()
export class TusUploadsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get uploads() {
    return this.dataSource.getRepository(TusUploadEntity);
  }

  private get locks() {
    return this.dataSource.getRepository(TusLockEntity);
  }

  async insert(upload: TusUploadEntity): Promise<void> {
    await this.uploads.insert(upload);
  }

  findById(id: string): Promise<TusUploadEntity | null> {
    return this.uploads.findOneBy({ id });
  }

  /** Marks the upload completed; false when it was already (another request finished it) or is gone. */
  async markCompleted(id: string, at: Date): Promise<boolean> {
    const result = await this.uploads.update({ id, completedAt: IsNull() }, { completedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async delete(id: string): Promise<void> {
    await this.uploads.delete({ id });
  }

  /** Uploads to remove: completed ones, and unfinished ones created before `cutoff`; oldest first. */
  async findRemovable(cutoff: Date, limit: number): Promise<string[]> {
    const rows = await this.uploads.find({
      select: { id: true },
      where: [{ completedAt: Not(IsNull()) }, { createdAt: LessThan(cutoff) }],
      order: { createdAt: 'ASC' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /** Which of `ids` have a row. */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.uploads.find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Takes the lock of `uploadId` for `holder` until `expiresAt` when it is free or expired: an atomic
   * conditional UPDATE of an expired row, else the INSERT of the first row (a unique violation means
   * someone holds it).
   */
  async tryLock(uploadId: string, holder: string, expiresAt: Date, now: Date): Promise<boolean> {
    const updated = await this.locks.update(
      { uploadId, expiresAt: LessThan(now) },
      { holder, expiresAt, releaseRequested: false },
    );
    if ((updated.affected ?? 0) > 0) return true;
    try {
      await this.locks.insert({ uploadId, holder, expiresAt, releaseRequested: false });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Asks whoever holds the lock of `uploadId` to release it. */
  async requestRelease(uploadId: string): Promise<void> {
    await this.locks.update({ uploadId }, { releaseRequested: true });
  }

  /** The holder's heartbeat: extends its lease and tells whether another request waits. */
  async renewLock(uploadId: string, holder: string, expiresAt: Date): Promise<LockState> {
    const updated = await this.locks.update({ uploadId, holder }, { expiresAt });
    if ((updated.affected ?? 0) === 0) return 'lost';
    const row = await this.locks.findOne({ select: { releaseRequested: true }, where: { uploadId, holder } });
    if (row === null) return 'lost';
    return row.releaseRequested ? 'release-requested' : 'held';
  }

  async unlock(uploadId: string, holder: string): Promise<void> {
    await this.locks.delete({ uploadId, holder });
  }
}
