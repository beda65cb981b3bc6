import { AttributeType, AttributeTypeId } from '@dam/attributes';

/**
 * Attribute values as clients write and read them (DESIGN §6), and as they are stored. Dates are stored
 * in sortable ISO order (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`) so a later search can compare them as text,
 * and shown as `DD/MM/YYYY` and `DD/MM/YYYY HH:MM:SS`.
 */
export type ParsedValue = { ok: true; stored: string } | { ok: false; expected: string };

const DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const DATE_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
const NUMERIC = /^[-+]?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/;
const ID_LIST = /^\d{1,10}$/;
const MAX_TEXT_LENGTH = 65_535;

/** Types a client writes as plain values (not the system access-level and category attributes). */
export function isScalarType(typeId: AttributeTypeId): boolean {
  return typeId !== AttributeType.AccessLevels && typeId !== AttributeType.Categories;
}

/** Text-like values differ per language; the others are one value for every language. */
export function isTranslatable(typeId: AttributeTypeId): boolean {
  return typeId === AttributeType.Text || typeId === AttributeType.TextArea;
}

/**
 * Validates a non-empty client value of a scalar type and returns the form to store. List values are
 * checked against the list by the caller, since that needs the database.
 */
export function parseValue(typeId: AttributeTypeId, raw: string): ParsedValue {
  const value = typeId === AttributeType.Text || typeId === AttributeType.TextArea ? raw : raw.trim();
  switch (typeId) {
    case AttributeType.Date:
      return parseDate(value);
    case AttributeType.DateTime:
      return parseDateTime(value);
    case AttributeType.Time: {
      const time = parseTime(value);
      return time === undefined ? { ok: false, expected: 'a time as HH:MM:SS' } : { ok: true, stored: time };
    }
    case AttributeType.Numeric:
      return NUMERIC.test(value) ? { ok: true, stored: value } : { ok: false, expected: 'a decimal number' };
    case AttributeType.Boolean:
      return /^(true|false)$/i.test(value)
        ? { ok: true, stored: value.toLowerCase() }
        : { ok: false, expected: 'true or false' };
    default:
      return value.length > MAX_TEXT_LENGTH
        ? { ok: false, expected: `text of at most ${MAX_TEXT_LENGTH} characters` }
        : { ok: true, stored: value };
  }
}

/** The stored form of a value as clients read it. */
export function formatValue(typeId: AttributeTypeId, stored: string): string {
  if (typeId === AttributeType.Date) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(stored);
    return match === null ? stored : `${match[3]}/${match[2]}/${match[1]}`;
  }
  if (typeId === AttributeType.DateTime) {
    const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(stored);
    return match === null ? stored : `${match[3]}/${match[2]}/${match[1]} ${match[4]}`;
  }
  return stored;
}

/** A timestamp as `DD/MM/YYYY HH:MM:SS` (UTC), for the derived date attributes. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  // YYYY-MM-DDTHH:MM:SS.sssZ (four-digit years), as formatValue would render it, without the regex.
  if (iso.length === 24)
    return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
  return formatValue(AttributeType.DateTime, `${iso.slice(0, 10)} ${iso.slice(11, 19)}`);
}

/** Comma-separated ids (`"3, 5"`), de-duplicated in order; undefined when malformed. */
export function parseIdList(raw: string): number[] | undefined {
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (!parts.every((part) => ID_LIST.test(part))) return undefined;
  const ids = parts.map(Number);
  if (ids.some((id) => id < 1 || id > 2_147_483_647)) return undefined;
  return [...new Set(ids)];
}

function parseDate(value: string): ParsedValue {
  const match = DATE.exec(value);
  const date = match === null ? undefined : isoDate(match[1], match[2], match[3]);
  return date === undefined ? { ok: false, expected: 'a date as DD/MM/YYYY' } : { ok: true, stored: date };
}

function parseDateTime(value: string): ParsedValue {
  const failure: ParsedValue = { ok: false, expected: 'a date and time as DD/MM/YYYY HH:MM:SS' };
  const match = DATE_TIME.exec(value);
  if (match === null) return failure;
  const date = isoDate(match[1], match[2], match[3]);
  const time = match[4] === undefined ? '00:00:00' : parseTime(`${match[4]}:${match[5]}:${match[6] ?? '00'}`);
  return date === undefined || time === undefined ? failure : { ok: true, stored: `${date} ${time}` };
}

function parseTime(value: string): string | undefined {
  const match = TIME.exec(value);
  if (match === null) return undefined;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? '0')];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, '0')).join(':');
}

function isoDate(dayText: string, monthText: string, yearText: string): string | undefined {
  const [day, month, year] = [Number(dayText), Number(monthText), Number(yearText)];
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 && !leap ? 28 : daysInMonth)) return undefined;
  return `${yearText.padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
