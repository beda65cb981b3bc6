import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { XmlList } from '@dam/http';
import { Actor, ActorUser } from '@dam/access';
import { CategoriesService } from './categories.service';
import { CATEGORY_XML, CategoryMapper, CategorySearchNode } from './category.mapper';
import { readCategorySearchQuery } from './dto/category-search.query';
import { CategorySearchNodeSchema } from './categories.api';

@ApiTags('categories')
@ApiBearerAuth()
@Controller('rest/category-search')
export class CategorySearchController {
  constructor(
    private readonly categories: CategoriesService,
    private readonly mapper: CategoryMapper,
  ) {}

  @Get()
  @ApiOkResponse({ type: CategorySearchNodeSchema, isArray: true })
  @ApiQuery({ name: 'parentId', required: false, type: Number })
  @ApiQuery({ name: 'userId', required: false, type: Number })
  @ApiQuery({ name: 'count', required: false, type: Boolean })
  @XmlList('categories', CATEGORY_XML)
  async search(
    @Actor() actor: ActorUser,
    @Query() query: Record<string, unknown>,
  ): Promise<CategorySearchNode[]> {
    const { forest, counts } = await this.categories.search(actor, readCategorySearchQuery(query));
    return forest.map((node) => this.mapper.toSearchNode(node, counts));
  }
}
