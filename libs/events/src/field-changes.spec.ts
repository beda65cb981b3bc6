import { fieldChanges, SECRET_CHANGED } from './field-changes';

describe('fieldChanges', () => {
  it('keeps only the fields whose value changed, dates as ISO text, undefined as null', () => {
    const before = { name: 'a', email: null as string | null, admin: false, ids: [1, 2], at: new Date(0) };
    const after = { name: 'b', email: null as string | null, admin: false, ids: [1, 3], at: new Date(1000) };
    expect(fieldChanges(before, after, ['name', 'email', 'admin', 'ids', 'at'])).toEqual({
      name: { before: 'a', after: 'b' },
      ids: { before: [1, 2], after: [1, 3] },
      at: { before: '1970-01-01T00:00:00.000Z', after: '1970-01-01T00:00:01.000Z' },
    });
  });

  it('counts every set field of a creation or a deletion, from or to null', () => {
    expect(fieldChanges(undefined, { name: 'n', note: null }, ['name', 'note'])).toEqual({
      name: { before: null, after: 'n' },
    });
    expect(fieldChanges({ name: 'n' }, undefined, ['name'])).toEqual({ name: { before: 'n', after: null } });
  });

  it('names a changed secret with null on both sides', () => {
    expect(SECRET_CHANGED).toEqual({ before: null, after: null });
    expect(Object.isFrozen(SECRET_CHANGED)).toBe(true);
  });
});
