export * from './signed-urls.module';
export * from './sign-url.service';
