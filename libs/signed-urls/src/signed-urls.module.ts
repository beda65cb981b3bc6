import { Module, OnModuleInit } from '@nestjs/common';
import { RootLinks } from '@dam/http';
import { AccessModule } from '@dam/access';
import { SignUrlController } from './sign-url.controller';
import { SignUrlService } from './sign-url.service';

/**
 * `POST /rest/sign-url`. Requests carrying a signature are authenticated by the global guard
 * (libs/access), which verifies them with the same UrlSigner.
 */
@Module({
  imports: [AccessModule],
  controllers: [SignUrlController],
  providers: [SignUrlService],
})
export class SignedUrlsModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('signingUrl', 'sign-url');
  }
}
