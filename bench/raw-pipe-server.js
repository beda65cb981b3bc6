#!/usr/bin/env node
// The raw upload baseline: a bare Node HTTP server, no framework, that pipes each PUT body to a new file,
// fsyncs it before answering when RAW_FLUSH is not 'false' (as the fs storage adapter does), answers 200
// and then removes the file. A PUT to /keep/<name> keeps its file instead, as <name> in the folder RAW_DIR
// (the chunk writes of the chunked-upload baseline, which `cat` then joins). Any other request answers 200
// (readiness). Run in a process of its own, like the service, so that the client streaming the body does
// not share its event loop.
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { pipeline } = require('node:stream/promises');

const flush = process.env.RAW_FLUSH !== 'false';
const keepDir = process.env.RAW_DIR;

const server = http.createServer((req, res) => {
  if (req.method !== 'PUT') return void res.end('ok');
  const kept = /^\/keep\/([\w.-]+)$/.exec(req.url ?? '');
  if (kept !== null && keepDir === undefined) {
    res.statusCode = 400;
    return void res.end('RAW_DIR is not set');
  }
  const file =
    kept !== null ? path.join(keepDir, kept[1]) : path.join(os.tmpdir(), `dam-bench-raw-${randomUUID()}`);
  pipeline(req, fs.createWriteStream(file, { flush }))
    .then(
      () => res.end('ok'),
      (error) => {
        res.statusCode = 500;
        res.end(String(error));
      },
    )
    .finally(() => {
      if (kept === null) fs.rm(file, { force: true }, () => undefined);
    });
});
server.listen(Number(process.env.PORT ?? 3002), '127.0.0.1');
