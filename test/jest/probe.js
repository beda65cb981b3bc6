'use strict';
// Diagnostics (not committed): per-file CPU of the worker and its children, and active resources at END.
const fs = require('node:fs');
const path = require('node:path');
const DIR = process.env.DAM_JEST_PROBE;
function childTicks() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, ms (100 Hz)
}
let current;
exports.start = (testPath) => {
  if (!DIR) return;
  const cpu = process.cpuUsage();
  current = { testPath, wall: Date.now(), cpu: cpu.user + cpu.system, children: childTicks() };
};
exports.end = () => {
  if (!DIR || !current) return;
  const cpu = process.cpuUsage();
  const row = {
    file: path.basename(current.testPath),
    leg: process.env.DAM_TEST_MATRIX || 'sqlite',
    wallMs: Date.now() - current.wall,
    cpuMs: Math.round((cpu.user + cpu.system - current.cpu) / 1000),
    childMs: childTicks() - current.children,
    heapMb: Math.round(process.memoryUsage().heapUsed / 1e6),
  };
  fs.appendFileSync(path.join(DIR, `files-${process.pid}.jsonl`), JSON.stringify(row) + '\n');
  current = undefined;
};
if (DIR) {
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== 2) return;
    process.removeListener('message', onMessage);
    const at = Date.now();
    const timer = setTimeout(() => {
      const handles = process._getActiveHandles().map((h) => {
        const name = h?.constructor?.name;
        let detail = '';
        try {
          if (name === 'Socket')
            detail = `${h.localAddress}:${h.localPort}->${h.remoteAddress}:${h.remotePort} fd=${h._handle?.fd}`;
          if (name === 'Server') detail = JSON.stringify(h.address());
          if (name === 'ChildProcess') detail = h.spawnargs?.join(' ').slice(0, 200);
        } catch {}
        return `${name} ${detail}`;
      });
      fs.appendFileSync(
        path.join(DIR, `exit-${process.pid}.txt`),
        `${new Date().toISOString()} ${process.env.DAM_TEST_MATRIX || 'sqlite'} after ${Date.now() - at} ms: ${JSON.stringify(process.getActiveResourcesInfo())}\n  ${handles.join('\n  ')}\n`,
      );
    }, 300);
    timer.unref();
    process.on('exit', () =>
      fs.appendFileSync(
        path.join(DIR, `exit-${process.pid}.txt`),
        `${new Date().toISOString()} exited ${Date.now() - at} ms after END\n`,
      ),
    );
  };
  process.on('message', onMessage);
}
