/**
 * DATETIME columns on both databases: the one home of reading them raw and of what is written to them.
 */

/**
 * A DATETIME read raw: mysql2 answers a Date (timezone Z), better-sqlite3 the UTC text TypeORM wrote
 * (`YYYY-MM-DD HH:MM:SS[.mmm]`, no zone); a text with a zone is read as it says.
 */
export function dateOfDatetime(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}

/** A DATETIME keeps whole seconds on MariaDB (no fraction): store and show the same on both databases. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

/**
 * A DATETIME as a positional parameter of raw SQL, written as TypeORM writes it: mysql2 takes the Date
 * (timezone Z), better-sqlite3 the UTC text `YYYY-MM-DD HH:MM:SS.mmm`.
 */
export function datetimeParameter(date: Date, databaseType: string): Date | string {
  return databaseType === 'mysql' ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}
