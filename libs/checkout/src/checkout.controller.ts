import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import {
  ApiErrors,
  ApiPaging,
  ApiRedirect,
  IdPipe,
  pagedList,
  PagingQuery,
  UrlService,
  XmlList,
  XmlRoot,
} from '@dam/http';
import type { Response } from 'express';
import {
  CHECKOUT_XML,
  CheckoutListItem,
  CheckoutMapper,
  CheckoutStatusRepresentation,
} from './checkout.mapper';
import { CheckoutService } from './checkout.service';
import { NamedCheckoutDto, UpdateCheckoutDto } from './dto/checkout.dto';
import { CheckoutListItemSchema, CheckoutStatusSchema } from './checkout.api';

/** One asset's checkout answers at both of its addresses (spec 4.6). */
const ONE_CHECKOUT = ['assets/:assetId/checkout', 'checkout/:assetId'];

/** Spec 4.6 and 4.9: the checkout of an asset, and the checkout base resource. */
@ApiTags('checkout')
@ApiBearerAuth()
@Controller('rest')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly mapper: CheckoutMapper,
    private readonly urls: UrlService,
  ) {}

  @Get(ONE_CHECKOUT)
  @ApiOkResponse({ type: CheckoutStatusSchema })
  @XmlRoot(CHECKOUT_XML)
  async get(
    @Actor() actor: ActorUser,
    @Param('assetId', new IdPipe('asset')) assetId: number,
  ): Promise<CheckoutStatusRepresentation> {
    return this.mapper.toStatus(await this.checkout.get(actor, assetId));
  }

  @Put(ONE_CHECKOUT)
  @ApiOkResponse({ type: CheckoutStatusSchema })
  @ApiErrors(409)
  @XmlRoot(CHECKOUT_XML)
  async update(
    @Actor() actor: ActorUser,
    @Param('assetId', new IdPipe('asset')) assetId: number,
    @Body() request: UpdateCheckoutDto,
  ): Promise<CheckoutStatusRepresentation> {
    return this.mapper.toStatus(await this.checkout.update(actor, assetId, request.userId));
  }

  @Get('checkout')
  @ApiPaging()
  @ApiOkResponse({ type: CheckoutListItemSchema, isArray: true })
  @XmlList('checkouts', CHECKOUT_XML)
  async list(
    @Actor() actor: ActorUser,
    @Query() query: PagingQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CheckoutListItem[]> {
    const { states } = await pagedList(query, response, this.urls.rest('checkout'), (paging) =>
      this.checkout.list(actor, paging),
    );
    return states.map((state) => this.mapper.toListItem(state));
  }

  @Post('checkout')
  @ApiRedirect('To the checkout resource of the asset, `/rest/checkout/{assetId}`')
  async locate(
    @Actor() actor: ActorUser,
    @Body() request: NamedCheckoutDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const assetId = await this.checkout.locate(actor, request.assetId);
    response.status(303).location(this.mapper.url(assetId));
  }

  @Put('checkout')
  @ApiOkResponse({ type: CheckoutStatusSchema })
  @ApiErrors(409)
  @XmlRoot(CHECKOUT_XML)
  async updateNamed(
    @Actor() actor: ActorUser,
    @Body() request: NamedCheckoutDto,
  ): Promise<CheckoutStatusRepresentation> {
    return this.mapper.toStatus(await this.checkout.updateNamed(actor, request.assetId, request.userId));
  }
}
