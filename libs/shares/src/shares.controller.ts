import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiErrors, ApiPaging, IdPipe, PagingQuery, XmlList, XmlRoot, pagedList } from '@dam/http';
import type { Response } from 'express';
import { ShareCreateDto } from './dto/share-create.dto';
import { SHARE_XML, ShareMapper, ShareRepresentation } from './share.mapper';
import { ShareSchema } from './shares.api';
import { SharesService } from './shares.service';

/** A user's shares: pages of 100 (the first when none is asked for), at most 1000. */
const SHARE_PAGES = { pageSize: 100, maxPageSize: 1000, firstPageByDefault: true } as const;

/** Shares (README "Sharing outside", DESIGN §12): links for people without an account. */
@ApiTags('shares')
@ApiBearerAuth()
@Controller('rest/shares')
export class SharesController {
  constructor(
    private readonly shares: SharesService,
    private readonly mapper: ShareMapper,
  ) {}

  /** 201 with `Location`; `publicUrl` is in this answer only. */
  @Post()
  @ApiCreatedResponse({
    description: 'Created; `Location` is its URL; `publicUrl` shown once',
    type: ShareSchema,
  })
  @ApiErrors(403)
  @XmlRoot(SHARE_XML)
  async create(
    @Actor() actor: ActorUser,
    @Body() body: ShareCreateDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ShareRepresentation> {
    const { share, token } = await this.shares.create(actor, body);
    response.status(201).location(this.mapper.instanceUrl(share.id));
    return this.mapper.toShare(share, token);
  }

  /** Your own shares, newest first (admins: everyone's), with X-Total-Count and Link. */
  @Get()
  @ApiPaging()
  @ApiOkResponse({ type: ShareSchema, isArray: true })
  @XmlList('shares', SHARE_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ShareRepresentation[]> {
    const { shares } = await pagedList(
      query,
      response,
      this.mapper.listUrl(),
      (paging) => this.shares.list(actor, paging),
      SHARE_PAGES,
    );
    return shares.map((share) => this.mapper.toShare(share));
  }

  @Get(':id')
  @ApiOkResponse({ type: ShareSchema })
  @XmlRoot(SHARE_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('share')) id: number,
  ): Promise<ShareRepresentation> {
    return this.mapper.toShare(await this.shares.getOrThrow(actor, id));
  }

  /** Revokes it: its public URLs answer 404 at once, on every instance. The share stays listed. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked (also when it already was)' })
  async revoke(@Actor() actor: ActorUser, @Param('id', new IdPipe('share')) id: number): Promise<void> {
    await this.shares.revoke(actor, id);
  }
}
