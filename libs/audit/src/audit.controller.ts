import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser, Caller, Principal } from '@dam/access';
import { IdPipe, XmlList } from '@dam/http';
import type { Response } from 'express';
import { AuditEntrySchema, FieldChangeSchema } from './audit.api';
import { AUDIT_ENTRY_XML, AuditEntryRepresentation, AuditMapper } from './audit.mapper';
import { AuditPage, AuditQuery, AuditService } from './audit.service';

/** Newest first; `Link: <...>; rel="next"` (with `cursor`) while there may be more. */
function answer(page: AuditPage, mapper: AuditMapper, response: Response): AuditEntryRepresentation[] {
  if (page.next !== null) response.setHeader('Link', `<${page.next}>; rel="next"`);
  return page.entries.map((entry) => mapper.toEntry(entry));
}

/** The audit log (README "Audit log"). Admins and the application user only. */
@ApiTags('audit')
@ApiExtraModels(FieldChangeSchema)
@ApiBearerAuth()
@Controller('rest/admin/audit')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly mapper: AuditMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: AuditEntrySchema, isArray: true })
  @XmlList('auditEntries', AUDIT_ENTRY_XML)
  async list(
    @Caller() caller: Principal,
    @Query() query: AuditQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuditEntryRepresentation[]> {
    // `userId` filters by actor here: the caller, not the user it names, must be an admin.
    return answer(await this.audit.list(caller.user, query), this.mapper, response);
  }
}

/** `GET /rest/assets/{id}/history`: the audit entries of one asset, for anyone who sees it. */
@ApiTags('assets')
@ApiExtraModels(FieldChangeSchema)
@ApiBearerAuth()
@Controller('rest/assets/:id/history')
export class AssetHistoryController {
  constructor(
    private readonly audit: AuditService,
    private readonly mapper: AuditMapper,
  ) {}

  @Get()
  @ApiQuery({ name: 'pageSize', required: false, type: Number })
  @ApiQuery({ name: 'cursor', required: false, type: Number })
  @ApiOkResponse({ type: AuditEntrySchema, isArray: true })
  @XmlList('auditEntries', AUDIT_ENTRY_XML)
  async history(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Query() query: AuditQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuditEntryRepresentation[]> {
    return answer(await this.audit.history(actor, id, query), this.mapper, response);
  }
}
