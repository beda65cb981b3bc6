import { ArgumentMetadata, PipeTransform, ValidationPipe } from '@nestjs/common';

/**
 * Nest's ValidationPipe (whitelisted, transformed DTOs), except that path parameters reach their own
 * pipes as the raw strings the client sent: Nest's implicit `+value` would turn `0x1` or `1e0` into 1
 * before IdPipe could refuse them.
 */
class DtoValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
    });
  }

  /** Whether `transform` validates a value of this kind (a DTO class), rather than passing it on. */
  validates(metadata: ArgumentMetadata): boolean {
    return this.toValidate(metadata);
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

/**
 * The global pipe: DtoValidationPipe, answering without a promise what it would pass on unchanged (a
 * custom decorator's value, which it never validates, and a path parameter of a primitive type): every
 * request runs its parameters through the global pipe, and `GET /rest/assets/{id}` has two of them.
 */
export class AppValidationPipe implements PipeTransform<unknown, unknown> {
  private readonly validation = new DtoValidationPipe();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom' || (metadata.type === 'param' && !this.validation.validates(metadata))) {
      return value;
    }
    return this.validation.transform(value, metadata);
  }
}
