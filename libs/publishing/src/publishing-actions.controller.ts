import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ApiRedirect, IdPipe, XmlList, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { PublishingActionPostDto } from './dto/publishing-action.dto';
import {
  PUBLISHING_ACTION_XML,
  PUBLISHING_LOG_XML,
  PublishingActionMapper,
  PublishingActionRepresentation,
  PublishingLogRepresentation,
} from './publishing-action.mapper';
import { PublishingActionsService } from './publishing-actions.service';
import { PublishingActionSchema, PublishingLogSchema } from './publishing.api';

@ApiTags('publishing-actions')
@ApiBearerAuth()
@Controller('rest/publishing-actions')
export class PublishingActionsController {
  constructor(
    private readonly actions: PublishingActionsService,
    private readonly mapper: PublishingActionMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: PublishingActionSchema, isArray: true })
  @XmlList('publishingActions', PUBLISHING_ACTION_XML)
  async list(@Actor() actor: ActorUser): Promise<PublishingActionRepresentation[]> {
    return (await this.actions.list(actor)).map((action) => this.mapper.toRepresentation(action));
  }

  /** `{name, criteria}` creates (201, Location); `{publishingActionId}` runs (303 to the action). */
  @Post()
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: PublishingActionSchema })
  @ApiRedirect('Run: to the publishing action that was run')
  @XmlRoot(PUBLISHING_ACTION_XML)
  async post(
    @Actor() actor: ActorUser,
    @Body() body: PublishingActionPostDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PublishingActionRepresentation | undefined> {
    const { created, id } = await this.actions.post(actor, body);
    if (!created) {
      response.status(303).location(this.mapper.url(id));
      return undefined;
    }
    response.status(201).location(this.mapper.url(id));
    return this.mapper.toRepresentation(await this.actions.get(actor, id));
  }

  @Get(':id')
  @ApiOkResponse({ type: PublishingActionSchema })
  @XmlRoot(PUBLISHING_ACTION_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('publishing action')) id: number,
  ): Promise<PublishingActionRepresentation> {
    return this.mapper.toRepresentation(await this.actions.get(actor, id));
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('publishing action')) id: number): Promise<void> {
    return this.actions.delete(actor, id);
  }

  @Get(':id/log')
  @ApiQuery({ name: 'startSequence', required: false, schema: { type: 'integer', minimum: 0 } })
  @ApiOkResponse({ type: PublishingLogSchema })
  @XmlRoot(PUBLISHING_LOG_XML)
  async log(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('publishing action')) id: number,
    @Query('startSequence') startSequence: unknown,
  ): Promise<PublishingLogRepresentation> {
    const { events, nextStartSequence } = await this.actions.log(actor, id, startSequence);
    return this.mapper.toLog(events, nextStartSequence);
  }
}
