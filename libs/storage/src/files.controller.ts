import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Public, StreamGarbage } from '@dam/http';
import { FilesService } from './files.service';

/**
 * `GET /files/{key}`: the fs store's signed download URLs. Public: the signature is the credential.
 * Not in the API description: clients only ever follow these URLs, they never build them.
 */
@ApiExcludeController()
@Public()
@Controller()
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Get('files/*key')
  async download(@Req() request: Request, @Res() response: Response): Promise<void> {
    const reply = await this.files.serve({
      url: request.originalUrl,
      method: request.method,
      range: request.get('range'),
      ifNoneMatch: request.get('if-none-match'),
      ifRange: request.get('if-range'),
    });
    response.status(reply.status);
    // setHeader, not res.set: Express would append a charset to text types the file may not be in.
    for (const [name, value] of Object.entries(reply.headers)) response.setHeader(name, value);
    if (reply.body === undefined) {
      response.end(reply.text);
      return;
    }
    try {
      await pipeline(StreamGarbage.watch(reply.body), response);
    } catch (error) {
      // A client that goes away mid-download is normal; pipeline has already closed the file.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
    }
  }
}
