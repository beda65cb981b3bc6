import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RootLinks, UrlService, XmlRoot } from '@dam/http';
import { RootSchema } from './root.api';

export interface RootResource {
  api_name: string;
  api_version_1_3: Record<string, string>;
}

/** The REST root: absolute URLs of every collection this instance serves. */
@ApiTags('root')
@ApiBearerAuth()
@Controller('rest')
export class RootController {
  constructor(
    private readonly links: RootLinks,
    private readonly urls: UrlService,
  ) {}

  @Get()
  @ApiOkResponse({ description: 'The URLs of the collections', type: RootSchema })
  @XmlRoot('root')
  root(): RootResource {
    const api: Record<string, string> = {};
    for (const [key, path] of this.links.entries()) api[key] = this.urls.rest(...path);
    return { api_name: 'DAM REST API', api_version_1_3: api };
  }
}
