import { Injectable, PipeTransform } from '@nestjs/common';
import { BadRequest as BadRequestError, NotFound } from './domain-errors';

const MAX_ID = 2_147_483_647;

/** Parses a path id; anything that cannot be an id (letters, negative, huge) names no resource: 404. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  constructor(private readonly resource: string) {}

  transform(raw: string): number {
    const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) {
      throw new NotFound(`${this.resource} ${truncate(raw)} does not exist`);
    }
    return id;
  }
}

/** Parses an optional id given in a query parameter or body; bad values are the client's mistake: 400. */
export function parseOptionalId(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = typeof raw === 'number' ? String(raw) : raw;
  const id = typeof text === 'string' && /^-?\d{1,10}$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id > MAX_ID || id < -MAX_ID) {
    throw new BadRequestError(`${name} must be a whole number`);
  }
  return id;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}...` : value;
}
