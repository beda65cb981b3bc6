#!/usr/bin/env node
// The raw upload baseline: a bare Node HTTP server, no framework, that pipes each PUT body to a new file,
// fsyncs it before answering when RAW_FLUSH is not 'false' (as the fs storage adapter does), answers 200
// and then removes the file. Any other request answers 200 (readiness). Run in a process of its own, like
// the service, so that the client streaming the body does not share its event loop.
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { pipeline } = require('node:stream/promises');

const flush = process.env.RAW_FLUSH !== 'false';

const server = http.createServer((req, res) => {
  if (req.method !== 'PUT') return void res.end('ok');
  const file = path.join(os.tmpdir(), `dam-bench-raw-${randomUUID()}`);
  pipeline(req, fs.createWriteStream(file, { flush }))
    .then(
      () => res.end('ok'),
      (error) => {
        res.statusCode = 500;
        res.end(String(error));
      },
    )
    .finally(() => fs.rm(file, { force: true }, () => undefined));
});
server.listen(Number(process.env.PORT ?? 3002), '127.0.0.1');
