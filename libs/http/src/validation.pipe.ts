import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';

/**
 * The global validation pipe (whitelisted, transformed DTOs), except that path parameters reach their own
 * pipes as the raw strings the client sent: Nest's implicit `+value` would turn `0x1` or `1e0` into 1
 * before IdPipe could refuse them.
 */
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
    });
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}
