import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiPaging, readPaging, UrlService, writePagingHeaders, XmlList } from '@dam/http';
import type { Response } from 'express';
import { AssetApprovalsService, IdPage } from './asset-approvals.service';
import { AssetMapper, PENDING_APPROVAL_XML, PendingApprovalRepresentation } from './asset.mapper';
import { PendingApprovalSchema } from './assets.api';

/** What awaits approval, filtered to what the actor (or `?userId=`) may approve. */
@ApiTags('assets')
@ApiBearerAuth()
@Controller('rest')
export class PendingApprovalsController {
  constructor(
    private readonly approvals: AssetApprovalsService,
    private readonly mapper: AssetMapper,
    private readonly urls: UrlService,
  ) {}

  @Get('pending-upload-approvals')
  @ApiPaging()
  @ApiOkResponse({ type: PendingApprovalSchema, isArray: true })
  @XmlList('pendingApprovals', PENDING_APPROVAL_XML)
  async uploads(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PendingApprovalRepresentation[]> {
    const paging = readPaging(query, 100, 1000);
    const page = await this.approvals.pendingUploads(actor, paging);
    return this.present(page, 'pending-upload-approvals', paging, response);
  }

  @Get('pending-edit-approvals')
  @ApiPaging()
  @ApiOkResponse({ type: PendingApprovalSchema, isArray: true })
  @XmlList('pendingApprovals', PENDING_APPROVAL_XML)
  async edits(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PendingApprovalRepresentation[]> {
    const paging = readPaging(query, 100, 1000);
    const page = await this.approvals.pendingEdits(actor, paging);
    return this.present(page, 'pending-edit-approvals', paging, response);
  }

  private present(
    page: IdPage,
    path: string,
    paging: ReturnType<typeof readPaging>,
    response: Response,
  ): PendingApprovalRepresentation[] {
    if (paging !== undefined) writePagingHeaders(response, this.urls.rest(path), paging, page.total);
    return page.ids.map((id) => this.mapper.pendingApproval(id));
  }
}
