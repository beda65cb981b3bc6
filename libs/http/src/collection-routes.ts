import { applyDecorators, Get } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { ApiPaging } from './openapi.decorators';
import { XmlUrls } from './xml';

/**
 * `GET` of a base collection (Asset Bank's): the URLs of its items, paged (`page`/`pageSize`, with
 * X-Total-Count and Link: `pagedList`), as JSON or as an XML list of `url`.
 */
export function UrlListRoute(path?: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    XmlUrls(),
    ApiPaging(),
    ApiOkResponse({ description: 'The URLs of the items', type: String, isArray: true }),
  );
}
