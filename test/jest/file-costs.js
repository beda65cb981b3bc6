'use strict';
/**
 * DAM_JEST_FILE_COSTS=<folder>: each worker appends a line per test file to <folder>/<pid>.jsonl: its leg,
 * wall time, the worker's CPU time (all its threads), the CPU time of the child processes it reaped while
 * the file ran (a service started by the spec, the CLI, ffmpeg), and the heap the worker keeps after the file
 * (after a full collection: the one cost of measuring). What a CI run's
 * CPU goes to, file by file (bench/results/spec-times.md); off unless set.
 */
const fs = require('node:fs');
const path = require('node:path');

const FOLDER = process.env.DAM_JEST_FILE_COSTS;

/** A full collection, so that the heap figure is what the worker keeps (the measurement's own cost). */
let collect;
function liveHeapMb() {
  if (collect === undefined) {
    require('node:v8').setFlagsFromString('--expose-gc');
    collect = require('node:vm').runInNewContext('gc');
  }
  collect();
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20);
}

/** CPU time of the reaped children, ms (/proc's cutime + cstime, in ticks of 10 ms). */
function childrenMs() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Starts measuring a file; the answer ends it and writes its line. */
function measureFile(testPath) {
  if (!FOLDER) return () => undefined;
  const start = { wall: Date.now(), cpu: cpuMs(), children: childrenMs() };
  return () => {
    const line = {
      file: path.relative(process.cwd(), testPath),
      leg: process.env.DAM_TEST_MATRIX || 'sqlite',
      wallMs: Date.now() - start.wall,
      cpuMs: Math.round(cpuMs() - start.cpu),
      childMs: childrenMs() - start.children,
      liveHeapMb: liveHeapMb(),
    };
    fs.mkdirSync(FOLDER, { recursive: true });
    fs.appendFileSync(path.join(FOLDER, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  };
}

module.exports = { measureFile };
