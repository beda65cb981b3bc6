export * from './signed-urls.module';
export * from './sign-url.service';
export * from './dto/sign-url.request';
export { SIGNED_URL_XML } from './sign-url.controller';
