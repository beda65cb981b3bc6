'use strict';
/**
 * Jest's sequencer, with each file's duration known on a fresh clone too (jest.config.ts `testSequencer`).
 *
 * Jest runs the slowest files first, so that no worker is left with a long file while the other idles at
 * the end; it learns the durations from its cache, and without one (CI on a clean machine) it orders by
 * file size, which put files of 20-30 s last. `durations.json` holds each file's milliseconds per leg
 * (SQLite + fs, MariaDB + S3), measured on the 2-core CI machine; the cache's own figure wins when there is
 * one. Refresh it after a change in what the slow files do: `node test/jest/write-durations.js <sqlite.json>
 * <mysql.json>` from two runs with `--json --outputFile=<file>`.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');
const durations = require('./durations.json');

const LEG = process.env.DAM_TEST_MATRIX === 'mysql' ? 'mysql' : 'sqlite';
const ROOT = path.resolve(__dirname, '../..');

class DurationSequencer extends Sequencer {
  time(test) {
    return super.time(test) ?? durations[LEG][path.relative(ROOT, test.path)];
  }
}

module.exports = DurationSequencer;
