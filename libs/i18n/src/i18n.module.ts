import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LanguageService } from './language.service';
import { TranslationEntity } from './translation.entity';
import { TranslationsService } from './translations.service';

/** Language negotiation and stored translations, available to every area. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TranslationEntity])],
  providers: [LanguageService, TranslationsService],
  exports: [LanguageService, TranslationsService],
})
export class I18nModule {}
