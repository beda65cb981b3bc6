'use strict';
/**
 * Writes test/jest/durations.json (see duration-sequencer.js) from the JSON reports of a SQLite run and a
 * MariaDB run: `node test/jest/write-durations.js <sqlite.json> <mysql.json>`.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const [sqliteReport, mysqlReport] = process.argv.slice(2);
if (mysqlReport === undefined) {
  process.stderr.write('usage: node test/jest/write-durations.js <sqlite.json> <mysql.json>\n');
  process.exit(2);
}

/** Relative path -> milliseconds, sorted by path so that a refresh diffs well. */
function durationsOf(report) {
  const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
  const entries = testResults.map((result) => [
    path.relative(ROOT, result.name),
    Math.round(result.perfStats?.runtime ?? result.endTime - result.startTime),
  ]);
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

const durations = { sqlite: durationsOf(sqliteReport), mysql: durationsOf(mysqlReport) };
fs.writeFileSync(path.join(__dirname, 'durations.json'), `${JSON.stringify(durations, null, 1)}\n`);
