import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its smallest while the application boots. Loading the modules allocates
 * a lot of short-lived garbage, and V8 answers that by doubling the young generation to its maximum
 * (2 × 16 MB), which then stays resident while the process idles: about 30 MB of RSS for nothing.
 * `restoreHeapGrowth()` gives V8 back its default growth once the server listens, so under load the young
 * generation grows as usual (up to `--max-semi-space-size`, which `npm start` and the Docker image set
 * to 16). Imported first by main.ts; does nothing when the operator sets the young generation's growth
 * or its least size (`--semi-space-growth-factor`, `--min-semi-space-size`).
 */
const tunedByOperator = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(' ')].some(
  (flag) => flag.includes('semi-space-growth') || flag.includes('min-semi-space'),
);

if (!tunedByOperator) setFlagsFromString('--semi-space-growth-factor=1');

export function restoreHeapGrowth(): void {
  if (!tunedByOperator) setFlagsFromString('--semi-space-growth-factor=2');
}
