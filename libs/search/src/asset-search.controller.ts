import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser, Caller, Principal } from '@dam/access';
import { QueryParams, UrlService, writePagingHeaders, XmlList } from '@dam/platform';
import type { Request, Response } from 'express';
import { ASSET_SUMMARY_XML, AssetSummary } from './asset-summary.mapper';
import { AssetSearchService } from './asset-search.service';

@ApiTags('asset-search')
@ApiBearerAuth()
@Controller('rest/asset-search')
export class AssetSearchController {
  constructor(
    private readonly search: AssetSearchService,
    private readonly urls: UrlService,
  ) {}

  /** Parameters are read from the raw query string: arrays come repeated, comma-joined or as `a[n]`. */
  @Get()
  @XmlList('assetSummaries', ASSET_SUMMARY_XML)
  async find(
    @Caller() caller: Principal,
    @Actor() actor: ActorUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetSummary[]> {
    const params = QueryParams.fromUrl(request.originalUrl);
    const { summaries, total, paging } = await this.search.search(caller, actor, params);
    writePagingHeaders(
      response,
      `${this.urls.rest('asset-search')}?${params.toQueryString()}`,
      paging,
      total,
    );
    return summaries;
  }
}
