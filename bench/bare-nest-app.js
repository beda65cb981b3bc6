#!/usr/bin/env node
// The floor the service's figures are compared with: a NestJS 11 app on Express with one controller whose
// one GET route returns a fixed JSON document, run like the service (plain `node`, one process, PORT from
// the environment). The document is BARE_JSON (the overview benchmark passes the body of the asset it
// requests, so both answers are the same bytes), else a small fixed one. Plain JavaScript with the
// decorators applied as functions, so that nothing transpiles at run time, as with the service's dist/.
// Express is set up as the service sets it up (createApp): no body parser, no ETag, no X-Powered-By.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const BODY = JSON.parse(process.env.BARE_JSON ?? '{"id":1,"name":"bare","values":[1,2,3]}');

class BareController {
  get() {
    return BODY;
  }
}
Get()(BareController.prototype, 'get', Object.getOwnPropertyDescriptor(BareController.prototype, 'get'));
Controller('bare')(BareController);

class BareModule {}
Module({ controllers: [BareController] })(BareModule);

async function main() {
  const app = await NestFactory.create(BareModule, { bodyParser: false, logger: ['error', 'warn'] });
  app.disable('x-powered-by');
  app.set('etag', false);
  await app.listen(Number(process.env.PORT ?? 3001), '127.0.0.1');
}

void main();
