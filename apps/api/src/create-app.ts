import { INestApplication, Logger, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@dam/platform';
import { AppModule } from './app.module';
import { withXmlResponses } from './xml-openapi';

/** Builds the configured application; used by main.ts and by every end-to-end test. */
export async function createApp(
  config: AppConfig,
  logger: LoggerService | LogLevel[] | false = new Logger(),
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy) app.set('trust proxy', true);
  app.enableShutdownHooks();
  // The OpenAPI document is built on the first request to /docs, not at boot: it costs time and memory
  // that most processes never need.
  SwaggerModule.setup(
    'docs',
    app,
    () => withXmlResponses(app, SwaggerModule.createDocument(app, describeApi())),
    {
      jsonDocumentUrl: 'docs/openapi.json',
    },
  );
  await app.init();
  return app;
}

function describeApi() {
  return new DocumentBuilder()
    .setTitle('DAM REST API')
    .setDescription('Digital asset management: assets, access levels, categories, lightboxes, uploads.')
    .setVersion('1.3')
    .addBearerAuth()
    .addOAuth2({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } })
    .build();
}
