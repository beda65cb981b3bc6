import { StateConflict, UnknownResource } from '@dam/errors';
import { AttributeNotFound, DuplicateKeyword, DuplicateListValue } from './attribute-errors';

describe('errors of the attributes area', () => {
  it.each([
    [
      'an unknown attribute',
      () => new AttributeNotFound(42),
      UnknownResource,
      'unknown-resource',
      'attribute 42 does not exist',
    ],
    [
      'a duplicate keyword',
      () => new DuplicateKeyword('Dogs'),
      StateConflict,
      'state-conflict',
      'a keyword named Dogs already exists at this place in the tree',
    ],
    [
      'a duplicate list value',
      () => new DuplicateListValue('Red'),
      StateConflict,
      'state-conflict',
      'the list value Red already exists for this attribute',
    ],
  ])('%s is a one-line %s', (_case, make, type, kind, message) => {
    const error = make();
    expect(error).toBeInstanceOf(type);
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain('\n');
  });

  it('quotes the client’s text as given, without trimming or case changes', () => {
    expect(new DuplicateKeyword(' Big Dogs ').message).toBe(
      'a keyword named  Big Dogs  already exists at this place in the tree',
    );
    expect(new DuplicateListValue('RED').message).toBe(
      'the list value RED already exists for this attribute',
    );
  });
});
