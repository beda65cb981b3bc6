import { Injectable } from '@nestjs/common';
import { AppConfig, RequestContext } from '@dam/core';
import { negotiateLanguage } from '@dam/http';
import { InvalidInput } from '@dam/errors';

/** Which configured language (DAM_LANGUAGES) the current request reads and writes. */
@Injectable()
export class LanguageService {
  constructor(private readonly config: AppConfig) {}

  get defaultLanguage(): string {
    return this.config.defaultLanguage;
  }

  /** From Accept-Language; missing, invalid or unknown values give the default language. */
  readLanguage(): string {
    return negotiateLanguage(RequestContext.current()?.acceptLanguages ?? [], this.config.languages);
  }

  /** From Content-Language; absent gives the default language; a language not configured is a 400. */
  writeLanguage(): string {
    const requested = RequestContext.current()?.contentLanguage;
    if (requested === undefined) return this.config.defaultLanguage;
    const language = negotiateLanguage([requested], this.config.languages);
    const matches = language === requested || language === requested.split('-')[0];
    if (!matches) {
      throw new InvalidInput(
        `Content-Language ${requested.slice(0, 20)} is not one of the configured languages (${this.config.languages.join(', ')})`,
      );
    }
    return language;
  }

  isDefault(language: string): boolean {
    return language === this.config.defaultLanguage;
  }
}
