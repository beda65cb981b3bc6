import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { RootLinks } from '@dam/http';
import { CategoriesController } from './categories.controller';
import { CategoriesRepository } from './categories.repository';
import { CategoriesService } from './categories.service';
import { CategoryMapper } from './category.mapper';
import { CategorySearchController } from './category-search.controller';
import { CategoryEntity } from './entities/category.entity';

/** The category tree: admin writes, reads and the search with visible-asset counts. */
@Module({
  imports: [TypeOrmModule.forFeature([CategoryEntity]), AccessModule],
  controllers: [CategoriesController, CategorySearchController],
  providers: [CategoriesRepository, CategoriesService, CategoryMapper],
  exports: [CategoriesService, CategoryMapper],
})
export class CategoriesModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('categoriesUrl', 'categories');
    this.rootLinks.register('categorySearchUrl', 'category-search');
  }
}
