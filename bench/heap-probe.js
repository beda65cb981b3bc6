// Preloaded into a server under benchmark (`node --expose-gc --max-semi-space-size=... -r
// ./bench/heap-probe.js main.js`) by bench/read-allocation.bench.ts. On SIGWINCH it prints one line,
// `heap-probe {"used":..,"gcs":..}`: V8's used heap size now (before any collection), and how many
// collections ran since the process started; then it runs a full GC and prints the used size after it as
// `heap-probe {"settled":..}`. Two probes around N requests with no collection in between give the bytes
// those requests allocated on the V8 heap (the young generation is made large enough by the flag).
// SIGWINCH because Nest's shutdown hooks take SIGUSR2 (and close the app), and SIGWINCH's default is to
// do nothing.
'use strict';
const v8 = require('node:v8');
const { PerformanceObserver } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');

// Preloaded into worker threads too (they inherit the flags): the probe belongs to the main thread.
if (isMainThread) install();

function install() {
  let gcs = 0;
  new PerformanceObserver((list) => {
    gcs += list.getEntries().length;
  }).observe({ entryTypes: ['gc'] });

  process.on('SIGWINCH', () => {
    const used = v8.getHeapStatistics().used_heap_size;
    process.stdout.write(`heap-probe ${JSON.stringify({ used, gcs })}\n`);
    setImmediate(() => {
      global.gc();
      const settled = v8.getHeapStatistics().used_heap_size;
      // The observer reports the forced collection later: counted as the baseline of the next probe.
      setTimeout(() => process.stdout.write(`heap-probe ${JSON.stringify({ settled, gcs })}\n`), 50);
    });
  });
}
