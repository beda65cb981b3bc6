/**
 * The figures of the overview benchmark (bench/overview.bench.ts) as bench/overview-report.ts renders them:
 * the settings of a run and what each step measured.
 */
import type { Matrix } from '../test/helpers/databases';
import { LoadFigures } from './load';

export interface Settings {
  rounds: number;
  seconds: number;
  warmUpSeconds: number;
  connections: number;
  uploadBytes: number;
  chunks: number;
  /** Cold starts measured of the service and of the bare app (after one uncounted first start). */
  starts: number;
  /** ms between the first answer and the idle VmRSS reading. */
  idleSettleMs: number;
  /** Sizes in bytes of the big uploads of the memory figures, ascending. */
  memorySizes: number[];
  memoryRounds: number;
  /** ms waited after a big upload's answer before its peak is read. */
  afterUploadMs: number;
  /** The access level tree of the search: tops, children of each top, children of each of those. */
  tree: { tops: number; perTop: number; perMiddle: number };
  assets: number;
}

/** An upload step over the rounds: MiB/s of the service, and of its baseline in the same rounds. */
export interface UploadRow {
  label: string;
  service: number[];
  baselineLabel?: string;
  baseline?: number[];
}

/** One start: ms from spawn to the first answer, VmRSS (bytes) `idleSettleMs` after it. */
export interface StartRun {
  firstAnswerMs: number;
  idleRss: number | undefined;
}

/** The final chunk copy and `cat` of the same chunks in one round, in ms. */
export interface ChunkRound {
  copyMs: number;
  catMs: number;
}

/** One big upload: peak resident set (VmHWM after a reset) during it and its aftermath, in bytes. */
export interface BigUploadRun {
  filename: string;
  size: number;
  round: number;
  before: number | undefined;
  peak: number | undefined;
  mibPerSecond: number;
}

export interface OverviewReport {
  settings: Settings;
  matrix: Matrix;
  describe: string;
  /** The first is the bare endpoint, the baseline of the others; the second GET /rest/assets/{id}. */
  requests: Array<{ label: string; runs: LoadFigures[] }>;
  /** In this order: content PUT, chunk PUTs, final copy, end to end. */
  uploads: UploadRow[];
  chunkRounds: ChunkRound[];
  /** The counted starts of the service and the bare app, and the service's first start on a new database. */
  starts: { service: StartRun[]; bare: StartRun[]; first: StartRun };
  bigUploads: BigUploadRun[];
  /** Resident set in bytes: after boot, peak after the request rounds (service), peak at the end. */
  memory: Record<
    'serviceBoot' | 'servicePeakReads' | 'servicePeak' | 'bareBoot' | 'barePeak',
    number | undefined
  >;
  /** 1, 5 and 15 minute load averages when the run and each phase started, and at the end. */
  loads: Array<{ phase: string; load: number[] }>;
  /** Length of the whole run. */
  minutes: number;
}

/** The middle run of an odd number of runs (the lower middle one of an even number): a measured figure. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
