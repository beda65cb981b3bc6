import { InvalidInput } from '@dam/errors';
import { applyDecorators } from '@nestjs/common';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A required, non-blank piece of text, trimmed; `message` when it is missing or blank. */
export function requiredText(raw: unknown, message: string, maxLength = 255): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new InvalidInput(message);
  const text = raw.trim();
  if (text.length > maxLength)
    throw new InvalidInput(`${text.slice(0, 40)}... is longer than ${maxLength} characters`);
  return text;
}

const MAX_DISPLAY_ORDER = 1_000_000;
const DISPLAY_ORDER_MESSAGE = `displayOrder must be a whole number from 0 to ${MAX_DISPLAY_ORDER}`;

/** A DTO's optional display position (null or absent: not given), a JSON whole number in range. */
export function IsDisplayOrder(): PropertyDecorator {
  const message = { message: DISPLAY_ORDER_MESSAGE };
  return applyDecorators(IsOptional(), IsInt(message), Min(0, message), Max(MAX_DISPLAY_ORDER, message));
}
