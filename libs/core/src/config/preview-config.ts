import type { EnvReader } from './env-reader';

/** How video and PDF previews are made (DESIGN §12, "Previews of video and documents"). */
export interface PreviewSettings {
  /** DAM_FFMPEG_PATH: a system ffmpeg instead of the one shipped in @ffmpeg-installer/ffmpeg. */
  ffmpegPath: string | undefined;
  /** DAM_RENDITION_TIMEOUT_SECONDS: a decoder child still running after this long is killed (no rendition). */
  timeoutSeconds: number;
  /** DAM_RENDITION_MAX_MEMORY_MB: a decoder child whose resident memory passes this is killed (no rendition). */
  maxMemoryMb: number;
  /** DAM_RENDITION_MAX_PDF_PAGES: a PDF with more pages gets no rendition. */
  maxPdfPages: number;
  /** DAM_RENDITION_THREADS: threads one ffmpeg child may use (default: half the cores, at least 1). */
  threads: number;
  /** DAM_RENDITION_POLL_MS: how often a worker looks for queued renditions of other instances; 0: only its own. */
  pollMs: number;
  /** DAM_RENDITION_LEASE_SECONDS: a claimed rendition task whose worker stops renewing is claimable after this. */
  leaseSeconds: number;
}

export function readPreviewSettings(read: EnvReader, cores: number): PreviewSettings {
  return {
    ffmpegPath: read.optionalString('DAM_FFMPEG_PATH'),
    timeoutSeconds: read.number('DAM_RENDITION_TIMEOUT_SECONDS', 600, 0.1, 7 * 24 * 3600),
    maxMemoryMb: read.integer('DAM_RENDITION_MAX_MEMORY_MB', 1024, 64, 1024 * 1024),
    maxPdfPages: read.integer('DAM_RENDITION_MAX_PDF_PAGES', 5000, 1, 10_000_000),
    threads: read.integer('DAM_RENDITION_THREADS', Math.max(1, Math.floor(cores / 2)), 1, 256),
    pollMs: read.integer('DAM_RENDITION_POLL_MS', 2000, 0, 3_600_000),
    leaseSeconds: read.integer('DAM_RENDITION_LEASE_SECONDS', 60, 1, 24 * 3600),
  };
}
