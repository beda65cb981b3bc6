import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ActorUser, Actor } from '@dam/access';
import { IdPipe } from '@dam/platform';
import type { Response } from 'express';
import { AssetApprovalsService } from './asset-approvals.service';
import { AssetUpdatesService } from './asset-updates.service';
import { AssetRepresentation } from './asset.mapper';
import { AssetsService } from './assets.service';

@ApiTags('assets')
@ApiBearerAuth()
@Controller('rest/assets')
export class AssetsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly updates: AssetUpdatesService,
    private readonly approvals: AssetApprovalsService,
  ) {}

  /** JSON, or XML (a `createAsset` document) as a string from the platform's body parser. */
  @Post()
  async create(
    @Actor() actor: ActorUser,
    @Body() body: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetRepresentation> {
    const asset = await this.assets.create(actor, body);
    response.status(201).location(asset.url);
    return asset;
  }

  @Get(':id')
  get(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<AssetRepresentation> {
    return this.assets.get(actor, id);
  }

  @Put(':id')
  update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Body() body: unknown,
  ): Promise<AssetRepresentation> {
    return this.updates.update(actor, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<void> {
    return this.assets.delete(actor, id);
  }

  /** 200 with an empty body. */
  @Post(':id/approve')
  @HttpCode(200)
  async approve(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<void> {
    await this.approvals.approve(actor, id);
  }
}
