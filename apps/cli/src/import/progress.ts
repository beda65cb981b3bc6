import { SingleBar } from 'cli-progress';
import { TransferIo } from '../transfer/connection';
import { ReportRow } from './importer';

export interface ImportProgress {
  advance(bytes: number): void;
  fileDone(row: ReportRow): void;
  stop(): void;
}

/**
 * On a TTY a bar with files, MiB and ETA (by bytes); otherwise one plain line per finished file on
 * stderr (logs, CI, pipes).
 */
export function importProgress(io: TransferIo, files: number, bytes: number): ImportProgress {
  const stream = io.progressStream;
  let done = 0;
  if (stream?.isTTY === true) {
    const bar = new SingleBar({
      stream,
      format:
        'import [{bar}] {percentage}% | {files}/{totalFiles} files | {mib}/{totalMib} MiB | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
    });
    const payload = () => ({
      files: done,
      totalFiles: files,
      mib: mib(bar.getProgress() * bytes),
      totalMib: mib(bytes),
    });
    bar.start(Math.max(bytes, 1), 0, { files: 0, totalFiles: files, mib: 0, totalMib: mib(bytes) });
    return {
      advance: (sent) => bar.increment(sent, payload()),
      fileDone: () => {
        done += 1;
        bar.update(payload());
      },
      stop: () => bar.stop(),
    };
  }
  return {
    advance: () => undefined,
    fileDone: (row) => {
      done += 1;
      io.stderr(`[${done}/${files}] ${row.status} ${row.path}${row.reason === '' ? '' : `: ${row.reason}`}`);
    },
    stop: () => undefined,
  };
}

function mib(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
