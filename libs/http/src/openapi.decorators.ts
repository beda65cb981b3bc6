import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiProduces,
  ApiProperty,
  ApiQuery,
  ApiResponse,
} from '@nestjs/swagger';

/**
 * OpenAPI decorators for what `@nestjs/swagger`'s own do not say in one line: the plain-text errors a
 * handler answers besides the generic ones (apps/api's document adds 400/401/403/404/406/413/415 where
 * they apply), binary bodies and responses, and redirects.
 */

/** Error statuses the handler answers; the body is the error filter's one line of `text/plain`. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: '', content: { 'text/plain': { schema: { type: 'string' } } } }),
    ),
  );
}

/** The request body is the raw bytes of a file (`application/octet-stream`, or any other declared type). */
export function ApiBinaryBody(description: string, ...types: string[]): MethodDecorator {
  const consumed = types.length > 0 ? types : ['application/octet-stream'];
  return applyDecorators(
    ApiConsumes(...consumed),
    ApiBody({ description, required: true, schema: { type: 'string', format: 'binary' } }),
    ApiHeader({
      name: 'Content-Disposition',
      required: false,
      description: 'The original file name: `attachment; filename="photo.jpg"`.',
    }),
  );
}

/** The response is the bytes of a file. */
export function ApiBinaryResponse(description: string, status = 200, ...types: string[]): MethodDecorator {
  const produced = types.length > 0 ? types : ['application/octet-stream'];
  return applyDecorators(
    ApiProduces(...produced),
    ApiResponse({
      status,
      description,
      content: Object.fromEntries(
        produced.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    }),
  );
}

/** The answer is a redirect (`303 See Other` by default) to the URL in `Location`. */
export function ApiRedirect(description: string, status = 303): MethodDecorator {
  return ApiResponse({
    status,
    description,
    headers: { Location: { description: 'Where to go', schema: { type: 'string', format: 'uri' } } },
  });
}

/** `?page=&pageSize=` of `pagedList`; a paged answer carries `X-Total-Count` and `Link`. */
export function ApiPaging(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 0 } }),
    ApiQuery({ name: 'pageSize', required: false, schema: { type: 'integer', minimum: 1 } }),
  );
}

/** OpenAPI: the fields a resource's representation opens with, its URL and its id. */
export class ResourceSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
}

/** OpenAPI: a resource that has a name after its URL and id. */
export class NamedResourceSchema extends ResourceSchema {
  @ApiProperty()
  name: string;
}
