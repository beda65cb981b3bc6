import { Module, OnModuleInit } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { RootLinks } from '@dam/http';
import { SearchModule } from '@dam/search';
import { PublishingActionMapper } from './publishing-action.mapper';
import { PublishingActionsController } from './publishing-actions.controller';
import { PublishingActionsRepository } from './publishing-actions.repository';
import { PublishingActionsService } from './publishing-actions.service';

/** Publishing actions: named asset searches whose result-set changes are logged run by run. */
@Module({
  imports: [AccessModule, AttributesModule, AssetsModule, SearchModule],
  controllers: [PublishingActionsController],
  providers: [PublishingActionsRepository, PublishingActionsService, PublishingActionMapper],
})
export class PublishingModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('publishingActionsUrl', 'publishing-actions');
  }
}
