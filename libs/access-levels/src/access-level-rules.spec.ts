import { InvalidInput } from '@dam/errors';
import { AccessLevelNotAssignable, isAssignable } from './access-level-rules';

describe('isAssignable (DESIGN §6)', () => {
  it.each([
    { hasChildren: false, isAlwaysAssignable: false, expected: true },
    { hasChildren: false, isAlwaysAssignable: true, expected: true },
    { hasChildren: true, isAlwaysAssignable: true, expected: true },
    { hasChildren: true, isAlwaysAssignable: false, expected: false },
  ])(
    'hasChildren=$hasChildren, isAlwaysAssignable=$isAlwaysAssignable -> $expected',
    ({ hasChildren, isAlwaysAssignable, expected }) => {
      expect(isAssignable({ hasChildren, isAlwaysAssignable })).toBe(expected);
    },
  );
});

describe('AccessLevelNotAssignable', () => {
  it('is a 400 naming the level', () => {
    const error = new AccessLevelNotAssignable(7);
    expect(error).toBeInstanceOf(InvalidInput);
    expect(error.name).toBe('AccessLevelNotAssignable');
    expect(error.message).toBe('access level 7 has sub-access levels and is not always assignable');
  });
});
