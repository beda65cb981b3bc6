import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { ETagged, IdPipe, pagedList, UrlListRoute, UrlService, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { CategoriesService } from './categories.service';
import { CATEGORY_XML, CategoryMapper, CategoryRepresentation } from './category.mapper';
import { CategoryWriteDto } from './dto/category-write.dto';
import { CategorySchema } from './categories.api';

@ApiTags('categories')
@ApiBearerAuth()
@Controller('rest/categories')
export class CategoriesController {
  constructor(
    private readonly categories: CategoriesService,
    private readonly mapper: CategoryMapper,
    private readonly urls: UrlService,
  ) {}

  @ETagged()
  @UrlListRoute()
  async list(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string[]> {
    const { ids } = await pagedList(query, response, this.urls.rest('categories'), (paging) =>
      this.categories.listIds(paging),
    );
    return ids.map((id) => this.mapper.url(id));
  }

  @Post()
  @XmlRoot(CATEGORY_XML)
  @ApiCreatedResponse({ description: 'Created; `Location` is its URL', type: CategorySchema })
  async create(
    @Actor() actor: ActorUser,
    @Body() body: CategoryWriteDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CategoryRepresentation> {
    const category = await this.categories.create(actor, body);
    response.status(201).location(this.mapper.url(category.item.id));
    return this.mapper.toRepresentation(category);
  }

  @ETagged()
  @Get(':id')
  @XmlRoot(CATEGORY_XML)
  @ApiOkResponse({ type: CategorySchema })
  async get(@Param('id', new IdPipe('category')) id: number): Promise<CategoryRepresentation> {
    return this.mapper.toRepresentation(await this.categories.get(id));
  }

  @Put(':id')
  @XmlRoot(CATEGORY_XML)
  @ApiOkResponse({ type: CategorySchema })
  async update(
    @Actor() actor: ActorUser,
    @Param('id', new IdPipe('category')) id: number,
    @Body() body: CategoryWriteDto,
  ): Promise<CategoryRepresentation> {
    return this.mapper.toRepresentation(await this.categories.update(actor, id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Actor() actor: ActorUser, @Param('id', new IdPipe('category')) id: number): Promise<void> {
    await this.categories.delete(actor, id);
  }
}
