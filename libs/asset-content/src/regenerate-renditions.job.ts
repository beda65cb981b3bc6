import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { JobContext, MaintenanceJob, walkInIdOrder } from '@dam/jobs';
import { ObjectStorage } from '@dam/storage';
import { AssetFilesRepository } from './asset-files.repository';
import { previewSourceOf } from './content-types';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetRenditionEntity, RENDITION_KINDS } from './entities/asset-rendition.entity';
import { RenditionsService } from './renditions.service';

/** Current files examined per batch; the batch's regenerations finish before the next batch starts. */
const BATCH = 50;

/**
 * `regenerate-renditions`: for assets whose current file is a convertible image, a video or a PDF,
 * regenerates the renditions (a video's proxy too) when one is missing (no row, or the row's object is gone; a failed generation leaves no
 * row), through the renditions queue, and waits for it before the next batch. Images over
 * DAM_RENDITION_MAX_INPUT_BYTES are skipped (they never get renditions); a file still without its
 * renditions afterwards (refused or undecodable) is reported. In an `api` process (DAM_ROLE=api) it
 * queues them and reports them queued without waiting: the workers make them. A dry run only reports.
 * Never deletes a file; replaced renditions go as on any regeneration.
 */
@Injectable()
export class RegenerateRenditionsJob extends MaintenanceJob {
  readonly name = 'regenerate-renditions';
  readonly defaultCron = '*/30 * * * *';
  readonly description = 'Regenerates missing or failed renditions of images, videos and PDFs';

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly renditions: RenditionsService,
    private readonly storage: ObjectStorage,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(context: JobContext): Promise<void> {
    const next = (afterId: number, limit: number) => this.files.currentFilesAfter(afterId, limit);
    await walkInIdOrder(
      context,
      BATCH,
      next,
      (file) => file.id,
      (current) => this.regenerate(context, current),
    );
  }

  /** Regenerates what the images, videos and PDFs among `current` lack (a dry run reports it). */
  private async regenerate(context: JobContext, current: AssetFileEntity[]): Promise<void> {
    const images = current.filter(
      (file) =>
        previewSourceOf(file.contentType) !== undefined && file.size <= this.config.renditionMaxInputBytes,
    );
    context.summary.examined += images.length;
    const lacking = await this.lacking(images);
    if (context.dryRun) {
      for (const { file, missing } of lacking) {
        context.summary.reported += 1;
        context.note(`asset ${file.assetId}: would regenerate (missing ${missing.join(', ')})`);
      }
    } else if (lacking.length > 0) {
      for (const { file } of lacking)
        await this.renditions.generateLater(file.assetId, file.id, file.contentType);
      if (!this.renditions.isWorker) return this.reportQueued(context, lacking);
      await this.renditions.idle();
      const still = new Map(
        (await this.lacking(lacking.map(({ file }) => file))).map((entry) => [entry.file.id, entry]),
      );
      for (const { file, missing } of lacking) {
        const left = still.get(file.id);
        if (left === undefined) {
          context.summary.changed += 1;
          context.note(`asset ${file.assetId}: regenerated (was missing ${missing.join(', ')})`);
        } else {
          context.summary.reported += 1;
          context.note(`asset ${file.assetId}: still missing ${left.missing.join(', ')} after regeneration`);
        }
      }
    }
  }

  /**
   * In an `api` process (DAM_ROLE), which makes no renditions: the tasks are queued for the workers, and
   * the run ends without waiting for them (a worker may not be running yet).
   */
  private reportQueued(
    context: JobContext,
    lacking: Array<{ file: AssetFileEntity; missing: string[] }>,
  ): void {
    for (const { file, missing } of lacking) {
      context.summary.reported += 1;
      context.note(`asset ${file.assetId}: queued for a rendition worker (missing ${missing.join(', ')})`);
    }
  }

  /** The files among `files` whose asset lacks a rendition row or object, with what is missing. */
  private async lacking(
    files: AssetFileEntity[],
  ): Promise<Array<{ file: AssetFileEntity; missing: string[] }>> {
    const rows = await this.files.renditionsOf(files.map((file) => file.assetId));
    const byAsset = new Map<number, AssetRenditionEntity[]>();
    for (const row of rows) byAsset.set(row.assetId, [...(byAsset.get(row.assetId) ?? []), row]);
    const result: Array<{ file: AssetFileEntity; missing: string[] }> = [];
    for (const file of files) {
      const own = byAsset.get(file.assetId) ?? [];
      const missing: string[] = [];
      const kinds = [...RENDITION_KINDS, ...(previewSourceOf(file.contentType) === 'video' ? ['video'] : [])];
      for (const kind of kinds) {
        const row = own.find((candidate) => candidate.kind === kind);
        if (row === undefined) missing.push(kind);
        else if ((await this.storage.stat(row.storageKey)) === undefined) missing.push(`${kind} object`);
      }
      if (missing.length > 0) result.push({ file, missing });
    }
    return result;
  }
}
