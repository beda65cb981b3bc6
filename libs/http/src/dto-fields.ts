import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsArray, IsOptional, IsString } from 'class-validator';

/** What a field says in the OpenAPI document besides its type (optional unless `required: true`). */
type FieldDoc = Omit<ApiPropertyOptions, 'type' | 'isArray'> & { required?: boolean };

/**
 * A text field of a request DTO: absent or null is "not given" (the service decides whether it may be),
 * any other value that is not a string is refused with `message`, the spec's plain text.
 */
export function TextField(message: string, doc: FieldDoc = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ required: false, ...doc, type: String } as ApiPropertyOptions),
    IsOptional(),
    IsString({ message }),
  );
}

/** A list field of a request DTO: absent or null is "not given", any other value not an array is refused. */
export function ListField(message: string, doc: ApiPropertyOptions = { type: [String] }): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ required: false, ...doc } as ApiPropertyOptions),
    IsOptional(),
    IsArray({ message }),
  );
}
