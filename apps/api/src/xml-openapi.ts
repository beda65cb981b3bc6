import type { OpenAPIObject } from '@nestjs/swagger';
import { HandlerIndex } from './openapi/handler-index';

const NEGOTIATED = ['application/json', 'application/xml'];

/**
 * Lists `application/json` and `application/xml` on the success responses of every operation whose
 * handler declares an XML binding (`@XmlRoot`, `@XmlList`, `@XmlUrls`). Operations are matched to their
 * handler by operationId (`HandlerIndex`).
 */
export function withXmlResponses(handlers: HandlerIndex, document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const binding = handlers.get(String(operation.operationId))?.xml;
      if (binding === undefined || binding.kind === 'json-only') continue;
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, Record<string, unknown>>,
      )) {
        if (!/^2\d\d$/.test(status) || status === '204') continue;
        const content = (response.content ?? {}) as Record<string, object>;
        const schema = Object.values(content)[0] ?? {};
        for (const type of NEGOTIATED) content[type] ??= schema;
        response.content = content;
      }
    }
  }
  return document;
}
