import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ActorUser, Actor } from '@dam/access';
import { ApiErrors, ETagged, IdPipe, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { AssetApprovalsService } from './asset-approvals.service';
import { AssetUpdatesService } from './asset-updates.service';
import { ASSET_XML, AssetRepresentation } from './asset.mapper';
import { AssetSchema } from './assets.api';
import { AssetsService } from './assets.service';
import { CreateAssetDto, createAssetJsonShape } from './dto/create-asset.request';
import { UpdateAssetDto, updateAssetJsonShape } from './dto/update-asset.request';
import { XmlBodyInterceptor } from './xml-body.interceptor';

@ApiTags('assets')
@ApiBearerAuth()
@Controller('rest/assets')
export class AssetsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly updates: AssetUpdatesService,
    private readonly approvals: AssetApprovalsService,
  ) {}

  /** JSON, or XML (a `createAsset` document), shaped as JSON by the interceptor. */
  @Post()
  @ApiConsumes('application/json', 'application/xml')
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: AssetSchema })
  @UseInterceptors(new XmlBodyInterceptor(createAssetJsonShape))
  @XmlRoot(ASSET_XML)
  async create(
    @Actor() actor: ActorUser,
    @Body() body: CreateAssetDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetRepresentation> {
    const asset = await this.assets.create(actor, body);
    response.status(201).location(asset.url);
    return asset;
  }

  @ETagged()
  @Get(':id')
  @ApiOkResponse({ type: AssetSchema })
  @XmlRoot(ASSET_XML)
  get(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
  ): AssetRepresentation | Promise<AssetRepresentation> {
    return this.assets.get(actor, id);
  }

  /** JSON, or the `asset` XML document that GET answers as XML, shaped as JSON by the interceptor. */
  @Put(':id')
  @ApiConsumes('application/json', 'application/xml')
  @ApiOkResponse({ type: AssetSchema })
  @ApiErrors(409)
  @UseInterceptors(new XmlBodyInterceptor(updateAssetJsonShape))
  @XmlRoot(ASSET_XML)
  update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Body() body: UpdateAssetDto,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<AssetRepresentation> {
    return this.updates.update(actor, id, body, ifMatch);
  }

  @Delete(':id')
  @ApiErrors(409)
  @HttpCode(204)
  delete(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('asset')) id: number,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.assets.delete(actor, id, ifMatch);
  }

  /** 200 with an empty body. */
  @Post(':id/approve')
  @ApiOkResponse({ description: 'Approved: an empty body' })
  @ApiErrors(409)
  @HttpCode(200)
  async approve(@Actor() actor: ActorUser, @Param('id', new IdPipe('asset')) id: number): Promise<void> {
    await this.approvals.approve(actor, id);
  }
}
