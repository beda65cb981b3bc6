import { AttributeType } from '@dam/attributes';
import { formatTimestamp, formatValue, parseIdList, parseValue } from './attribute-values';

function stored(typeId: Parameters<typeof parseValue>[0], raw: string): string | undefined {
  const parsed = parseValue(typeId, raw);
  return parsed.ok ? parsed.stored : undefined;
}

describe('attribute values per type', () => {
  it('keeps text and text area values as written', () => {
    expect(stored(AttributeType.Text, '  spaced  ')).toBe('  spaced  ');
    expect(stored(AttributeType.TextArea, 'line 1\nline 2')).toBe('line 1\nline 2');
    expect(stored(AttributeType.Keywords, 'cat, dog')).toBe('cat, dog');
  });

  it('refuses text beyond the column size', () => {
    expect(parseValue(AttributeType.Text, 'x'.repeat(70_000))).toEqual({
      ok: false,
      expected: 'text of at most 65535 characters',
    });
  });

  it.each([
    ['01/02/2024', '2024-02-01'],
    ['1/2/2024', '2024-02-01'],
    ['29/02/2024', '2024-02-29'],
    ['31/12/1999', '1999-12-31'],
  ])('stores the date %s as %s and shows it back as DD/MM/YYYY', (raw, iso) => {
    expect(stored(AttributeType.Date, raw)).toBe(iso);
    expect(formatValue(AttributeType.Date, iso)).toBe(iso.split('-').reverse().join('/'));
  });

  it.each(['29/02/2023', '32/01/2024', '01/13/2024', '2024-01-01', '00/01/2024', 'yesterday', ''])(
    'refuses the date %p',
    (raw) => {
      expect(parseValue(AttributeType.Date, raw)).toEqual({ ok: false, expected: 'a date as DD/MM/YYYY' });
    },
  );

  it('reads date-times with or without seconds or time, and shows DD/MM/YYYY HH:MM:SS', () => {
    expect(stored(AttributeType.DateTime, '05/06/2024 07:08:09')).toBe('2024-06-05 07:08:09');
    expect(stored(AttributeType.DateTime, '05/06/2024 7:08')).toBe('2024-06-05 07:08:00');
    expect(stored(AttributeType.DateTime, '05/06/2024')).toBe('2024-06-05 00:00:00');
    expect(formatValue(AttributeType.DateTime, '2024-06-05 07:08:09')).toBe('05/06/2024 07:08:09');
  });

  it.each(['05/06/2024 24:00:00', '05/06/2024 10:60:00', '31/04/2024 10:00:00', '2024-06-05T07:08:09Z'])(
    'refuses the date-time %p',
    (raw) => {
      expect(parseValue(AttributeType.DateTime, raw).ok).toBe(false);
    },
  );

  it('reads times as HH:MM:SS', () => {
    expect(stored(AttributeType.Time, '7:05')).toBe('07:05:00');
    expect(stored(AttributeType.Time, '23:59:59')).toBe('23:59:59');
    expect(parseValue(AttributeType.Time, '25:00:00')).toEqual({ ok: false, expected: 'a time as HH:MM:SS' });
  });

  it('reads decimal numbers only', () => {
    expect(stored(AttributeType.Numeric, ' -12.50 ')).toBe('-12.50');
    expect(stored(AttributeType.Numeric, '.5')).toBe('.5');
    for (const bad of ['1e5', '12,5', 'NaN', '1.2.3', '--1', 'ten']) {
      expect(parseValue(AttributeType.Numeric, bad)).toEqual({ ok: false, expected: 'a decimal number' });
    }
  });

  it('reads booleans as true or false in any case', () => {
    expect(stored(AttributeType.Boolean, 'TRUE')).toBe('true');
    expect(stored(AttributeType.Boolean, 'false')).toBe('false');
    expect(parseValue(AttributeType.Boolean, 'yes')).toEqual({ ok: false, expected: 'true or false' });
  });

  it('formats timestamps in UTC', () => {
    expect(formatTimestamp(new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))).toBe('02/01/2024 03:04:05');
  });

  it('reads comma-separated id lists, de-duplicated', () => {
    expect(parseIdList('3, 5,3')).toEqual([3, 5]);
    expect(parseIdList('')).toEqual([]);
    expect(parseIdList('1,x')).toBeUndefined();
    expect(parseIdList('0')).toBeUndefined();
    expect(parseIdList('99999999999')).toBeUndefined();
  });
});
