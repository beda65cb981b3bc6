import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiPaging, UrlService, XmlList, pagedList } from '@dam/http';
import type { Response } from 'express';
import { AssetApprovalsService } from './asset-approvals.service';
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
    const { ids } = await pagedList(query, response, this.urls.rest('pending-upload-approvals'), (paging) =>
      this.approvals.pendingUploads(actor, paging),
    );
    return ids.map((id) => this.mapper.pendingApproval(id));
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
    const { ids } = await pagedList(query, response, this.urls.rest('pending-edit-approvals'), (paging) =>
      this.approvals.pendingEdits(actor, paging),
    );
    return ids.map((id) => this.mapper.pendingApproval(id));
  }
}
