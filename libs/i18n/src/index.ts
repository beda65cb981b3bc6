export * from './language.service';
export * from './translations.service';
export * from './i18n.module';
