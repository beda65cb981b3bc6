import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiErrors, ApiPaging, IdPipe, PagingQuery, XmlList, XmlRoot, pagedList } from '@dam/http';
import type { Response } from 'express';
import { ASSET_XML, AssetRepresentation } from '../asset.mapper';
import { AssetSchema } from '../assets.api';
import { TrashedAssetSchema } from './trash.api';
import { TRASHED_ASSET_XML, TrashedAssetRepresentation, TrashMapper } from './trash.mapper';
import { TrashService } from './trash.service';

/** The trash can be long: without `page`/`pageSize`, its first page. */
const TRASH_PAGES = { pageSize: 100, maxPageSize: 1000, firstPageByDefault: true } as const;

/** Deleted assets kept restorable (README "Trash"). Admins and the application user only. */
@ApiTags('trash')
@ApiBearerAuth()
@Controller('rest/admin/trash')
export class TrashController {
  constructor(
    private readonly trash: TrashService,
    private readonly mapper: TrashMapper,
  ) {}

  /** Newest first, a page at a time (`page`, `pageSize` ≤ 1000, default 100), with X-Total-Count and Link. */
  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: TrashedAssetSchema, isArray: true })
  @XmlList('trashedAssets', TRASHED_ASSET_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TrashedAssetRepresentation[]> {
    const { items } = await pagedList(
      query,
      response,
      this.mapper.listUrl(),
      (paging) => this.trash.list(actor, paging),
      TRASH_PAGES,
    );
    return items.map((item) => this.mapper.toTrashedAsset(item));
  }

  /** 200 with the asset as it was, at its own URL again. */
  @Post(':id/restore')
  @HttpCode(200)
  @ApiOkResponse({ type: AssetSchema })
  @ApiErrors(409)
  @XmlRoot(ASSET_XML)
  restore(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('trashed asset')) id: number,
  ): Promise<AssetRepresentation> {
    return this.trash.restore(actor, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Purged: its rows are gone and its files queued for deletion' })
  purge(@Actor() actor: ActorUser, @Param('id', new IdPipe('trashed asset')) id: number): Promise<void> {
    return this.trash.purge(actor, id);
  }
}
