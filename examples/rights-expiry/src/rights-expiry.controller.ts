import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser, requireAdmin } from '@dam/access';
import { AssetReader } from '@dam/assets';
import { InvalidInput, UnknownResource } from '@dam/errors';
import { IdPipe, pagedList, Paging, PagingQuery, UrlService, XmlList, xmlMapping, XmlRoot } from '@dam/http';
import { Allow } from 'class-validator';
import type { Response } from 'express';
import { Rights, RightsRepository } from './rights.repository';

/** `PUT /rest/admin/rights-expiry/{assetId}`. */
export class RightsWriteDto {
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'null: no end' })
  @Allow()
  expiresAt?: unknown;
}

export interface RightsRepresentation {
  assetId: number;
  assetUrl: string;
  expiresAt: string | null;
  expired: boolean;
  expiredAt: string | null;
  url: string;
}

const RIGHTS_XML = xmlMapping('rights');

/** Pages of 100 (the first when none is asked for), at most 1000. */
const RIGHTS_PAGES = { pageSize: 100, maxPageSize: 1000, firstPageByDefault: true } as const;

/** The module's admin endpoint: when each asset's usage rights end. Admins and the application user only. */
@ApiTags('rights expiry (example extension)')
@ApiBearerAuth()
@Controller('rest/admin/rights-expiry')
export class RightsExpiryController {
  constructor(
    private readonly rights: RightsRepository,
    private readonly assets: AssetReader,
    private readonly urls: UrlService,
  ) {}

  @Get()
  @XmlList('rightsList', RIGHTS_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RightsRepresentation[]> {
    requireAdmin(actor, 'read rights');
    const load = (paging: Paging) => this.rights.page(paging.offset, paging.pageSize);
    const url = this.urls.rest('admin', 'rights-expiry');
    const { rights } = await pagedList(query, response, url, load, RIGHTS_PAGES);
    return rights.map((entry) => this.represent(entry));
  }

  @Get(':assetId')
  @XmlRoot(RIGHTS_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('assetId', new IdPipe('asset')) assetId: number,
  ): Promise<RightsRepresentation> {
    requireAdmin(actor, 'read rights');
    const rights = await this.rights.get(assetId);
    if (rights === undefined) throw new UnknownResource(`asset ${assetId} has no recorded rights`);
    return this.represent(rights);
  }

  /** Sets when the rights of an asset (that exists: asked of the assets area) end; a new date lifts an expiry. */
  @Put(':assetId')
  @XmlRoot(RIGHTS_XML)
  async set(
    @Actor() actor: ActorUser,
    @Param('assetId', new IdPipe('asset')) assetId: number,
    @Body() body: RightsWriteDto,
  ): Promise<RightsRepresentation> {
    requireAdmin(actor, 'change rights');
    await this.assets.visibleOrThrow(actor, assetId);
    await this.rights.set(assetId, readExpiry(body?.expiresAt));
    return this.get(actor, assetId);
  }

  private represent(rights: Rights): RightsRepresentation {
    return {
      assetId: rights.assetId,
      assetUrl: this.urls.rest('assets', rights.assetId),
      expiresAt: rights.expiresAt?.toISOString() ?? null,
      expired: rights.expiredAt !== null,
      expiredAt: rights.expiredAt?.toISOString() ?? null,
      url: this.urls.rest('admin', 'rights-expiry', rights.assetId),
    };
  }
}

function readExpiry(raw: unknown): Date | null {
  if (raw === null) return null;
  const date = typeof raw === 'string' && /^\d{4}-\d\d-\d\dT/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new InvalidInput('expiresAt must be an ISO 8601 date-time or null');
  return date;
}
