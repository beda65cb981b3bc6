import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IdPipe, pagedList, PagingQuery, UrlListRoute, UrlService, xmlMapping, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { AssetType } from './asset-type';
import { AssetTypesService } from './asset-types.service';
import { AssetTypeSchema } from '../attributes.api';

export interface AssetTypeRepresentation {
  url: string;
  id: number;
  name: string;
}

/** XML (DESIGN §3): `<assetType>`. */
export const ASSET_TYPE_XML = xmlMapping('assetType');

@ApiTags('asset types')
@ApiBearerAuth()
@Controller('rest/asset-types')
export class AssetTypesController {
  constructor(
    private readonly assetTypes: AssetTypesService,
    private readonly urls: UrlService,
  ) {}

  /** The URLs of every asset type, like the other base collections (Asset Bank). */
  @UrlListRoute()
  async list(@Query() query: PagingQuery, @Res({ passthrough: true }) response: Response): Promise<string[]> {
    const urls = (await this.assetTypes.list()).map(({ id }) => this.urls.rest('asset-types', id));
    return pagedList(query, response, this.urls.rest('asset-types'), urls);
  }

  @Get(':id')
  @XmlRoot(ASSET_TYPE_XML)
  @ApiOkResponse({ type: AssetTypeSchema })
  async get(@Param('id', new IdPipe('asset type')) id: number): Promise<AssetTypeRepresentation> {
    return this.toRepresentation(await this.assetTypes.get(id));
  }

  private toRepresentation({ id, name }: AssetType): AssetTypeRepresentation {
    return { url: this.urls.rest('asset-types', id), id, name };
  }
}
