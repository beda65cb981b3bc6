import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser, Caller, Principal } from '@dam/access';
import { QueryParams, UrlService, XmlList } from '@dam/http';
import type { Request, Response } from 'express';
import {
  ASSET_SEARCH_XML,
  ASSET_SUMMARY_XML,
  AssetSearchEnvelope,
  AssetSummary,
} from './asset-summary.mapper';
import { AssetSearchService, SearchPage } from './asset-search.service';
import { ApiAssetSearchPaging } from './search-envelope.api';
import { ApiAssetSearchQuery } from './search.api';

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
  @ApiAssetSearchQuery()
  @ApiAssetSearchPaging()
  @XmlList('assetSummaries', ASSET_SUMMARY_XML, ASSET_SEARCH_XML)
  async find(
    @Caller() caller: Principal,
    @Actor() actor: ActorUser,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetSummary[] | AssetSearchEnvelope> {
    const params = QueryParams.fromUrl(request.originalUrl);
    const page = await this.search.search(caller, actor, params);
    this.writePagingHeaders(response, params, page);
    if (page.facets === undefined) return page.summaries;
    return { results: page.summaries, total: page.total, facets: page.facets };
  }

  /**
   * X-Total-Count (unless count=false) and Link: first, prev and last by page number, next by `cursor`
   * (keyset) with the following page number, so a client following rel="next" pays the same on every page.
   */
  private writePagingHeaders(response: Response, params: QueryParams, page: SearchPage): void {
    const { paging, total, nextCursor } = page;
    if (total !== undefined) response.setHeader('X-Total-Count', String(total));
    const list = `${this.urls.rest('asset-search')}?${params.toQueryString((name) => name !== 'cursor')}`;
    const link = (pageNumber: number, rel: string, cursor?: string): string => {
      const url = new URL(list);
      if (cursor !== undefined) url.searchParams.set('cursor', cursor);
      url.searchParams.set('page', String(pageNumber));
      url.searchParams.set('pageSize', String(paging.pageSize));
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const lastPage = total === undefined ? undefined : Math.max(0, Math.ceil(total / paging.pageSize) - 1);
    const links = [link(0, 'first')];
    if (paging.page > 0) links.push(link(Math.min(paging.page - 1, lastPage ?? paging.page), 'prev'));
    if (nextCursor !== undefined) links.push(link(paging.page + 1, 'next', nextCursor));
    if (lastPage !== undefined) links.push(link(lastPage, 'last'));
    response.setHeader('Link', links.join(', '));
  }
}
