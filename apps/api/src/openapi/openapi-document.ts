import { INestApplication } from '@nestjs/common';
import { AppConfig, OidcSettings } from '@dam/core';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { withXmlResponses } from '../xml-openapi';
import { Handler, HandlerIndex, operationIdOf } from './handler-index';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The security requirement of every operation that is not `@Public()`: a bearer token, from either scheme. */
const AUTHENTICATED: Array<Record<string, string[]>> = [{ bearer: [] }, { oauth2: [] }];
/** ... or, with single sign-on (DAM_OIDC_ISSUER), a JWT of the identity provider too. */
const AUTHENTICATED_WITH_OIDC: Array<Record<string, string[]>> = [...AUTHENTICATED, { oidc: [] }];

/** The one-line plain-text body of every error (the error filter's), per status. */
const ERRORS: Record<number, string> = {
  400: 'Invalid input (a parameter or the body); the message says which.',
  401: 'No valid bearer token (`WWW-Authenticate: Bearer`).',
  403: 'The actor may not do this.',
  404: 'No such resource (or not visible to the actor).',
  406: 'None of the `Accept`ed types can be produced.',
  409: 'The resource is in a state that forbids this.',
  412: 'The resource changed since the `If-Match` ETag.',
  413: 'The body is larger than the limit.',
  415: 'The body has an unsupported content type.',
  429: 'Too many requests; retry after `Retry-After` seconds.',
  503: 'A dependency (database, storage) is unavailable.',
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  root: 'The REST root: absolute URLs of the collections.',
  health: 'Probes for load balancers and orchestrators.',
  oauth: 'OAuth 2 token endpoint (RFC 6749) and revocation (RFC 7009).',
  files: 'Signed downloads of stored objects (file-system storage).',
};

/**
 * The OpenAPI document of the running app: what the controllers' decorators declare, completed with what
 * holds for every operation (so a route added tomorrow is described too):
 * - operationIds `Controller_method`, independent of the order of declaration;
 * - the security requirement (bearer or OAuth2) unless the handler is `@Public()`;
 * - path parameters the decorators miss, as strings;
 * - the plain-text error responses (400, 401/403 when authenticated, 404 with a path parameter, 406 when
 *   the response is negotiated, 413/415 with a body), next to those the handlers declare;
 * - JSON and XML responses where the handler has an XML binding;
 * - a summary and a tag per operation, a description per tag.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const handlers = new HandlerIndex(app);
  const oidc = app.get(AppConfig).oidc;
  const authenticated = oidc === undefined ? AUTHENTICATED : AUTHENTICATED_WITH_OIDC;
  const document = SwaggerModule.createDocument(app, describeApi(), { operationIdFactory: operationIdOf });
  if (oidc !== undefined) declareSingleSignOn(document, oidc);
  withXmlResponses(handlers, document);
  const tags = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      const handler = handlers.get(String(operation.operationId));
      declarePathParameters(path, operation);
      addDefaultSuccess(operation, method, handler);
      operation.security = handler?.isPublic === true ? [] : authenticated;
      if (handler?.isPublic !== true) declareActingUser(operation);
      operation.summary ??= summaryOf(handler?.method ?? method, operation.tags?.[0]);
      for (const tag of operation.tags ?? []) tags.add(tag);
      addErrorResponses(operation, {
        authenticated: handler?.isPublic !== true,
        negotiated: handler?.xml !== undefined && handler.xml.kind !== 'json-only',
      });
    }
  }
  document.tags = [...tags].sort().map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `The ${name} of the DAM REST API.`,
  }));
  return document;
}

function describeApi(): Omit<OpenAPIObject, 'paths'> {
  return (
    new DocumentBuilder()
      .setTitle('DAM REST API')
      .setDescription(
        'Digital asset management: assets, access levels, categories, lightboxes, uploads. Errors are one ' +
          'line of `text/plain`. Tokens are opaque: get one from `/oauth/token` and send it as ' +
          '`Authorization: Bearer <token>`.',
      )
      .setVersion('1.3')
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .addServer('/', 'This instance')
      // addSecurity, not addBearerAuth: that one claims `bearerFormat: JWT`, and the tokens are opaque.
      .addSecurity('bearer', {
        type: 'http',
        scheme: 'bearer',
        description: 'An opaque access token from /oauth/token.',
      })
      .addOAuth2(
        {
          type: 'oauth2',
          description: 'RFC 6749 token endpoint; a refresh token is exchanged at the same URL.',
          flows: {
            password: { tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: {} },
            clientCredentials: { tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: {} },
          },
        },
        'oauth2',
      )
      .build()
  );
}

/** The identity provider's scheme (DAM_OIDC_ISSUER): its JWTs are accepted beside the service's tokens. */
function declareSingleSignOn(document: OpenAPIObject, oidc: OidcSettings): void {
  ((document.components ??= {}).securitySchemes ??= {}).oidc = {
    type: 'openIdConnect',
    openIdConnectUrl: oidc.discoveryUrl,
    description: `Single sign-on: a JWT access token of ${oidc.issuer} for the audience ${oidc.audience}.`,
  };
}

/** Each `{name}` of the path that no parameter declares, as a required string. */
function declarePathParameters(path: string, operation: OperationObject): void {
  const parameters = (operation.parameters ??= []);
  const declared = new Set(
    parameters
      .filter((parameter): parameter is ParameterObject => 'in' in parameter && parameter.in === 'path')
      .map((parameter) => parameter.name),
  );
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (declared.has(name)) continue;
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
}

/**
 * Nest describes the handler's own status (`@HttpCode`, or 200/201) only when no `@ApiResponse` is
 * declared; a handler that declares only its errors gets its success back here.
 */
function addDefaultSuccess(operation: OperationObject, method: string, handler: Handler | undefined): void {
  const responses = operation.responses as Record<string, ResponseObject | ReferenceObject>;
  if (Object.keys(responses).some((status) => /^[23]\d\d$/.test(status))) return;
  const handlerFunction = handler?.controller.prototype[handler.method as never] as object | undefined;
  const declared =
    handlerFunction === undefined
      ? undefined
      : (Reflect.getMetadata(HTTP_CODE_METADATA, handlerFunction) as number);
  const status = declared ?? (method === 'post' ? 201 : 200);
  responses[status] = { description: status === 204 ? 'Done: no content' : 'Done' };
}

/** `?userId=`: the guard lets a caller with the right act as another user on every authenticated route. */
function declareActingUser(operation: OperationObject): void {
  const parameters = (operation.parameters ??= []);
  if (
    parameters.some(
      (parameter) => 'in' in parameter && parameter.in === 'query' && parameter.name === 'userId',
    )
  )
    return;
  parameters.push({
    name: 'userId',
    in: 'query',
    required: false,
    description: 'Act as this user, when the caller may (the impersonation rules)',
    schema: { type: 'integer', minimum: 1 },
  });
}

interface OperationTraits {
  authenticated: boolean;
  negotiated: boolean;
}

function addErrorResponses(operation: OperationObject, traits: OperationTraits): void {
  const responses = operation.responses as Record<string, ResponseObject | ReferenceObject>;
  const parameters = operation.parameters ?? [];
  const hasBody = operation.requestBody !== undefined;
  const statuses = new Set<number>();
  if (hasBody || parameters.length > 0) statuses.add(400);
  if (traits.authenticated) [401, 403].forEach((status) => statuses.add(status));
  if (parameters.some((parameter) => 'in' in parameter && parameter.in === 'path')) statuses.add(404);
  if (traits.negotiated) statuses.add(406);
  if (hasBody) [413, 415].forEach((status) => statuses.add(status));
  for (const status of statuses) responses[status] ??= { description: ERRORS[status] };
  // Whoever declared an error status, its body is the error filter's one line of text.
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[45]\d\d$/.test(status) || '$ref' in response) continue;
    response.description ||= ERRORS[Number(status)] ?? 'Error.';
    response.content ??= { 'text/plain': { schema: { type: 'string' } } };
  }
}

/** `Assets`, `create` → `Create (assets)`: a fallback where the handler declares no summary. */
function summaryOf(method: string, tag: string | undefined): string {
  const words = method
    .replace(/\[\d+\]$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  return tag === undefined ? sentence : `${sentence} (${tag})`;
}
