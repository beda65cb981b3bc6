import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { XML_BINDING, XmlBinding } from '@dam/platform';

const NEGOTIATED = ['application/json', 'application/xml'];

/**
 * Lists `application/json` and `application/xml` on the success responses of every operation whose
 * handler declares an XML binding (`@XmlRoot`, `@XmlList`, `@XmlUrls`). Operations are matched by Nest's
 * operationId, `Controller_method`.
 */
export function withXmlResponses(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  const negotiated = negotiatedOperationIds(app);
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      if (!negotiated.has(String(operation.operationId))) continue;
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

function negotiatedOperationIds(app: INestApplication): Set<string> {
  const ids = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (typeof controller !== 'function') continue;
      const classBinding = Reflect.getMetadata(XML_BINDING, controller) as XmlBinding | undefined;
      if (classBinding?.kind === 'json-only') continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        if (method === 'constructor' || typeof prototype[method] !== 'function') continue;
        const binding = Reflect.getMetadata(XML_BINDING, prototype[method] as object) as
          XmlBinding | undefined;
        if (binding !== undefined && binding.kind !== 'json-only') ids.add(`${controller.name}_${method}`);
      }
    }
  }
  return ids;
}
