import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { Settings } from '@dam/database';
import { JobContext, MaintenanceJob } from '@dam/jobs';
import { ObjectNotFound, ObjectStorage } from '@dam/storage';
import { createHash } from 'node:crypto';
import { AssetFilesRepository } from './asset-files.repository';
import { AssetFileEntity } from './entities/asset-file.entity';

/** Files read per batch; the cursor is saved and the run checkpoints between batches. */
const BATCH = 100;
/** The last file id verified (in the `settings` table, through Settings); 0 or absent: start from the first file. */
export const VERIFY_INTEGRITY_CURSOR = 'verify-integrity.cursor';

/**
 * `verify-integrity`: re-hashes stored asset files (current, pending and earlier versions) and compares
 * size and SHA-256 with their row, reporting mismatches and missing objects. It changes nothing but its
 * cursor: each run reads at most DAM_VERIFY_INTEGRITY_MAX_BYTES_PER_RUN (at least one file) in id order
 * from where the last run stopped, and starts over from the first file once it passed the last, so the
 * schedule and that budget together set the rate. A dry run verifies the same way without moving the
 * cursor. Killed mid-run, the next run resumes after the last batch saved.
 */
@Injectable()
export class VerifyIntegrityJob extends MaintenanceJob {
  readonly name = 'verify-integrity';
  readonly defaultCron = '0 * * * *';
  readonly description =
    'Re-hashes stored asset files (DAM_VERIFY_INTEGRITY_MAX_BYTES_PER_RUN per run, resuming) and reports mismatches and missing objects';

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly storage: ObjectStorage,
    private readonly settings: Settings,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    let cursor = Number((await this.settings.get(VERIFY_INTEGRITY_CURSOR)) ?? 0) || 0;
    let budget = this.config.verifyIntegrityMaxBytesPerRun;
    let verifiedAny = false;
    for (let done = false; !done;) {
      const rows = await this.files.filesAfter(cursor, BATCH);
      if (rows.length === 0) {
        // Past the last file: start over, at once when this run has verified nothing yet.
        const wrap = cursor !== 0 && !verifiedAny;
        cursor = 0;
        if (wrap) continue;
        done = true;
      }
      for (const row of rows) {
        if (verifiedAny && row.size > budget) {
          done = true;
          break;
        }
        await this.verify(row, context);
        verifiedAny = true;
        budget -= row.size;
        cursor = row.id;
        if (budget <= 0) {
          done = true;
          break;
        }
      }
      if (!context.dryRun) await this.settings.set(VERIFY_INTEGRITY_CURSOR, String(cursor));
      if (!done) await context.checkpoint();
    }
  }

  private async verify(row: AssetFileEntity, context: JobContext): Promise<void> {
    context.summary.examined += 1;
    const label = `asset ${row.assetId} file ${row.id} (${row.storageKey})`;
    let actual: { size: number; sha256: string };
    try {
      actual = await this.hash(row.storageKey);
    } catch (error) {
      if (!(error instanceof ObjectNotFound)) throw error;
      context.summary.reported += 1;
      context.note(`missing object: ${label}`);
      return;
    }
    if (actual.size === row.size && actual.sha256 === row.sha256) return;
    context.summary.reported += 1;
    context.note(
      `mismatch: ${label}: expected ${row.size} bytes sha256 ${row.sha256}, stored ${actual.size} bytes sha256 ${actual.sha256}`,
    );
  }

  private async hash(key: string): Promise<{ size: number; sha256: string }> {
    const stream = await this.storage.get(key);
    const hash = createHash('sha256');
    let size = 0;
    for await (const part of stream) {
      const bytes = Buffer.isBuffer(part) ? part : Buffer.from(part as string);
      hash.update(bytes);
      size += bytes.length;
    }
    return { size, sha256: hash.digest('hex') };
  }
}
