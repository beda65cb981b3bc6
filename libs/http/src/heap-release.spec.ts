import type { AppConfig } from '@dam/core';
import { HeapRelease, HeapReleaseProbes } from './heap-release';

const MiB = 1024 * 1024;

/** A HeapRelease over probes the test moves by hand: requests, streamed bytes, RSS; counts collections. */
function subject(heapReleaseMb = 32) {
  const state = { requests: 0, streamed: 0, rss: 150 * MiB, collections: [] as unknown[] };
  const probes: HeapReleaseProbes = {
    requests: () => state.requests,
    streamed: () => state.streamed,
    rss: () => state.rss,
    collect: (options) => {
      state.collections.push(options);
      state.rss = 145 * MiB;
    },
  };
  const release = new HeapRelease({ heapReleaseMb } as AppConfig, probes);
  release.onApplicationBootstrap();
  release.onModuleDestroy(); // the spec calls check() itself
  return { release, state };
}

describe('HeapRelease', () => {
  it('gives the heap back once, after a quiet period that follows a busy one that grew RSS', () => {
    const { release, state } = subject();
    release.check();
    state.requests += 5000;
    state.rss = 390 * MiB;
    release.check(); // requests came in the last period: busy
    expect(state.collections).toEqual([]);
    release.check(); // none since: idle, 240 MB over the boot's 150
    expect(state.collections).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    release.check();
    release.check(); // still idle, RSS back at its floor: nothing more
    expect(release.releases).toBe(1);
    state.rss = 390 * MiB; // grown again without a request (a job, the CLI): left to V8
    release.check();
    expect(release.releases).toBe(1);
  });

  it('never collects while requests start or a stream goes on', () => {
    const { release, state } = subject();
    state.rss = 400 * MiB;
    for (let period = 0; period < 5; period++) {
      if (period % 2 === 0) state.requests++;
      else state.streamed += 64 * 1024;
      release.check();
    }
    expect(release.releases).toBe(0);
  });

  it('leaves growth under DAM_HEAP_RELEASE_MB alone, and does nothing at 0', () => {
    const small = subject(32);
    small.state.requests += 100;
    small.state.rss += 31 * MiB;
    small.release.check();
    small.release.check();
    expect(small.release.releases).toBe(0);
    const off = subject(0);
    off.state.requests += 100;
    off.state.rss += 500 * MiB;
    off.release.check();
    off.release.check();
    expect(off.release.releases).toBe(0);
  });
});
