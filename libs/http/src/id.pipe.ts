import { Injectable, PipeTransform } from '@nestjs/common';
import { UnknownResource } from '@dam/errors';
import { isValidId } from './parsers';

/** Parses a path id; anything that cannot be an id (letters, negative, huge) names no resource: 404. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  constructor(private readonly resource: string) {}

  transform(raw: string): number {
    const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!isValidId(id)) throw new UnknownResource(`${this.resource} ${truncate(raw)} does not exist`);
    return id;
  }
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}...` : value;
}
