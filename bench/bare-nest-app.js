#!/usr/bin/env node
// The floor the service's figures are compared with: a NestJS app (the same Nest as the service) on Express with one controller whose
// one GET route reads one row from SQLite with the service's driver (better-sqlite3, a prepared
// `SELECT ... WHERE id = ?` per request) and returns it as JSON, run like the service (plain `node`, one
// process, PORT from the environment). The database is a file of its own (BARE_DB, else a new file in the
// temp folder, removed on exit) in WAL mode like the service's, with one table holding one row: the
// document BARE_JSON (the overview benchmark passes the body of the asset it requests, so both answers are
// the same bytes), else a small fixed one. Plain JavaScript with the decorators applied as functions, so
// that nothing transpiles at run time, as with the service's dist/. Express is set up as the service sets
// it up (createApp): no body parser, no ETag, no X-Powered-By. With BARE_MYSQL_URL the row is read from
// that MySQL/MariaDB database with mysql2 instead (the overview benchmark's mysql matrix).
require('reflect-metadata');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Controller, Get, Header, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const DOCUMENT = process.env.BARE_JSON ?? '{"id":1,"name":"bare","values":[1,2,3]}';
// BARE_MYSQL_URL (mysql://user:password@host:port/database): the row lives in that MySQL/MariaDB database
// instead, read with mysql2 (the service's MySQL driver) through a pool and a prepared statement.
const MYSQL_URL = process.env.BARE_MYSQL_URL;

let readDocument;
let cleanUp;
if (MYSQL_URL === undefined) {
  const Database = require('better-sqlite3');
  const ownFolder = process.env.BARE_DB
    ? undefined
    : fs.mkdtempSync(path.join(os.tmpdir(), 'dam-bench-bare-'));
  const file = process.env.BARE_DB ?? path.join(ownFolder, 'bare.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS asset (id INTEGER PRIMARY KEY, document TEXT NOT NULL)');
  db.prepare('INSERT OR REPLACE INTO asset (id, document) VALUES (1, ?)').run(DOCUMENT);
  const readRow = db.prepare('SELECT id, document FROM asset WHERE id = ?');
  readDocument = () => readRow.get(1).document;
  cleanUp = async () => {
    db.close();
    if (ownFolder !== undefined) fs.rmSync(ownFolder, { recursive: true, force: true });
  };
} else {
  const mysql = require('mysql2/promise');
  const pool = mysql.createPool({ uri: MYSQL_URL, connectionLimit: 10 });
  readDocument = async () => {
    const [rows] = await pool.execute('SELECT id, document FROM bare_asset WHERE id = ?', [1]);
    return rows[0].document;
  };
  cleanUp = async () => {
    await pool.query('DROP TABLE IF EXISTS bare_asset');
    await pool.end();
  };
  readDocument.prepare = async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS bare_asset (id INT PRIMARY KEY, document TEXT NOT NULL)');
    await pool.query('REPLACE INTO bare_asset (id, document) VALUES (1, ?)', [DOCUMENT]);
  };
}

class BareController {
  get() {
    const document = readDocument();
    return typeof document === 'string' ? JSON.parse(document) : document.then((text) => JSON.parse(text));
  }

  // The pass-through floor (`GET /bare/text`): the stored JSON text sent as it is, not parsed nor
  // re-serialised (issue 29: the service's cached answers are text too).
  text() {
    return readDocument();
  }
}
Get()(BareController.prototype, 'get', Object.getOwnPropertyDescriptor(BareController.prototype, 'get'));
const text = Object.getOwnPropertyDescriptor(BareController.prototype, 'text');
Get('text')(BareController.prototype, 'text', text);
Header('Content-Type', 'application/json; charset=utf-8')(BareController.prototype, 'text', text);
Controller('bare')(BareController);

class BareModule {}
Module({ controllers: [BareController] })(BareModule);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    cleanUp().finally(() => process.exit(0));
  });
}

async function main() {
  await readDocument.prepare?.();
  const app = await NestFactory.create(BareModule, { bodyParser: false, logger: ['error', 'warn'] });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(Number(process.env.PORT ?? 3001), '127.0.0.1');
}

void main();
