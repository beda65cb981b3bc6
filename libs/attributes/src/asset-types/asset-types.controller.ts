import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { IdPipe, PagingQuery, UrlService } from '@dam/platform';
import type { Response } from 'express';
import { AssetType } from './asset-type';
import { pageOf } from '../paged-list';
import { AssetTypesService } from './asset-types.service';

export interface AssetTypeRepresentation {
  url: string;
  id: number;
  name: string;
}

@ApiTags('asset types')
@ApiBearerAuth()
@Controller('rest/asset-types')
export class AssetTypesController {
  constructor(
    private readonly assetTypes: AssetTypesService,
    private readonly urls: UrlService,
  ) {}

  @Get()
  async list(
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetTypeRepresentation[]> {
    const types = (await this.assetTypes.list()).map((assetType) => this.toRepresentation(assetType));
    return pageOf(types, query, response, this.urls.rest('asset-types'));
  }

  @Get(':id')
  async get(@Param('id', new IdPipe('asset type')) id: number): Promise<AssetTypeRepresentation> {
    return this.toRepresentation(await this.assetTypes.get(id));
  }

  private toRepresentation({ id, name }: AssetType): AssetTypeRepresentation {
    return { url: this.urls.rest('asset-types', id), id, name };
  }
}
