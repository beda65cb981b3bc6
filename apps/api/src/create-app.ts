import { DynamicModule, INestApplication, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '@dam/core';
import {
  indexRoutes,
  mountBodyParsers,
  mountRequestContext,
  NegotiatingExpressAdapter,
  TrustedOrigin,
} from '@dam/http';
import { loggingParams, nestLoggerOf, pinoLevelOf } from '@dam/observability';
import { AppModule } from './app.module';
import { corsOptions, securityHeaders, workerOnlyRoutes } from './http-semantics';
import { buildOpenApiDocument } from './openapi/openapi-document';

/** Builds the configured application; used by main.ts and by every end-to-end test. */
export async function createApp(
  config: AppConfig,
  logLevels: LogLevel[] | false = ['log', 'warn', 'error', 'fatal'],
  /** Extension modules to boot with the API (docs/extending.md), e.g. examples/rights-expiry. */
  extraModules: Array<Type | DynamicModule> = [],
): Promise<INestApplication> {
  // Nest's own logs and one line per request, through one pino logger (DAM_LOG_FORMAT, DAM_LOG_REQUESTS).
  const logging = loggingParams(config, pinoLevelOf(logLevels));
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, logging, extraModules),
    new NegotiatingExpressAdapter(),
    {
      bodyParser: false,
      logger: nestLoggerOf(logging),
      abortOnError: false,
    },
  );
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy) app.set('trust proxy', true);
  // Before every route (Swagger UI's too): helmet's headers, the trusted origin (a foreign Host is a 400),
  // CORS when DAM_CORS_ORIGINS is set, and the request context.
  app.use(securityHeaders());
  app.use(new TrustedOrigin(config).middleware());
  if (config.role === 'worker') app.use(workerOnlyRoutes());
  if (config.corsOrigins.length > 0) app.enableCors(corsOptions(config.corsOrigins));
  // Then every request's context (id, origin, languages, metrics), then the body parsers.
  mountRequestContext(app);
  mountBodyParsers(app);
  app.enableShutdownHooks();
  // The OpenAPI document is built on the first request to /docs, not at boot: it costs time and memory
  // that most processes never need.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs/openapi.json',
  });
  await app.init();
  // Every route is registered now: index them by their first path segments (a request runs ~2 route
  // matches instead of up to ~150).
  indexRoutes(app.getHttpAdapter().getInstance());
  return app;
}
