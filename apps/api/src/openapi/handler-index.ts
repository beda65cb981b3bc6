import { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { IS_PUBLIC, XML_BINDING, XmlBinding } from '@dam/http';

/** The operationId of a handler: `Assets_create` for `AssetsController.create`, whatever the declaration order. */
export function operationIdOf(controllerKey: string, methodKey: string): string {
  // A handler serving several paths is `method[0]`, `method[1]`, ... (Nest's alias keys).
  return `${controllerKey.replace(/Controller$/, '')}_${methodKey.replace(/\[(\d+)\]$/, '_$1')}`;
}

export interface Handler {
  controller: new (...args: never[]) => unknown;
  method: string;
  /** `@Public()` on the handler or its controller. */
  isPublic: boolean;
  /** The handler's XML binding (`@XmlRoot`, `@XmlList`, `@JsonOnly`), its own or its controller's. */
  xml: XmlBinding | undefined;
}

/** The app's controller handlers by operationId, read from Nest's module container. */
export class HandlerIndex {
  private readonly handlers = new Map<string, Handler>();

  constructor(app: INestApplication) {
    for (const module of app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as Handler['controller'] | null;
        if (typeof controller !== 'function') continue;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const method of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[method];
          if (method === 'constructor' || typeof handler !== 'function') continue;
          this.handlers.set(operationIdOf(controller.name, method), {
            controller,
            method,
            isPublic:
              (Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, controller)) ===
              true,
            xml: (Reflect.getMetadata(XML_BINDING, handler) ??
              Reflect.getMetadata(XML_BINDING, controller)) as XmlBinding | undefined,
          });
        }
      }
    }
  }

  /** The handler behind an operationId (an alias `method_1` falls back to `method`). */
  get(operationId: string): Handler | undefined {
    return this.handlers.get(operationId) ?? this.handlers.get(operationId.replace(/_\d+$/, ''));
  }
}
