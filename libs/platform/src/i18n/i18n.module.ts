import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LanguageService } from './language.service';
import { TranslationEntity } from './translation.entity';
import { TranslationsRepository } from './translations.repository';

/** Language negotiation and stored translations, available to every area. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TranslationEntity])],
  providers: [LanguageService, TranslationsRepository],
  exports: [LanguageService, TranslationsRepository],
})
export class I18nModule {}
