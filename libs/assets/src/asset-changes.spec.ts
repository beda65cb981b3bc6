import { AccessGrants, Permission } from '@dam/access';
import { isEmpty, mergeChanges, parseStoredChanges, sameIds } from './asset-changes';
import { editOutcome, uploadOutcome } from './rules/asset-permissions';

describe('pending asset changes', () => {
  it('merges a later edit over an earlier one, field by field', () => {
    const earlier = {
      values: [
        { attributeId: 1, language: '', value: 'old title' },
        { attributeId: 2, language: '', value: 'kept' },
      ],
      accessLevelIds: [1],
      categoryIds: [4],
    };
    const later = { values: [{ attributeId: 1, language: '', value: 'new title' }], accessLevelIds: [2] };
    expect(mergeChanges(earlier, later)).toEqual({
      values: [
        { attributeId: 1, language: '', value: 'new title' },
        { attributeId: 2, language: '', value: 'kept' },
      ],
      accessLevelIds: [2],
      categoryIds: [4],
      parentIds: undefined,
    });
  });

  it('reads back what it stored and ignores anything malformed', () => {
    const changes = { values: [{ attributeId: 3, language: 'fr', value: null }], parentIds: [7] };
    expect(parseStoredChanges(JSON.stringify(changes))).toEqual({
      ...changes,
      accessLevelIds: undefined,
      categoryIds: undefined,
    });
    expect(parseStoredChanges('not json')).toEqual({ values: [] });
    expect(parseStoredChanges('{"values":[{"attributeId":"x"}]}').values).toEqual([]);
  });

  it('knows an empty change and compares id sets', () => {
    expect(isEmpty({ values: [] })).toBe(true);
    expect(isEmpty({ values: [], parentIds: [] })).toBe(false);
    expect(sameIds([1, 2], [2, 1])).toBe(true);
    expect(sameIds([1, 2], [1])).toBe(false);
  });
});

describe('upload and edit outcomes', () => {
  const grants = (byLevel: Record<number, Permission[]>): AccessGrants =>
    AccessGrants.of(
      new Map(Object.entries(byLevel).map(([id, permissions]) => [Number(id), new Set(permissions)])),
      Object.keys(byLevel).map(Number),
    );

  it('is direct with the full permission on every level', () => {
    expect(uploadOutcome(grants({ 1: ['upload'], 2: ['upload'] }), [1, 2])).toBe('direct');
    expect(editOutcome(grants({ 1: ['edit'] }), [1])).toBe('direct');
  });

  it('goes through approval where only the with-approval permission is held', () => {
    expect(uploadOutcome(grants({ 1: ['upload'], 2: ['uploadWithApproval'] }), [1, 2])).toBe('approval');
    expect(editOutcome(grants({ 1: ['editWithApproval'] }), [1])).toBe('approval');
  });

  it('is refused when any level lacks both, or there are no levels', () => {
    expect(uploadOutcome(grants({ 1: ['upload'], 2: ['view'] }), [1, 2])).toBe('refused');
    expect(editOutcome(grants({ 1: ['upload'] }), [1])).toBe('refused');
    expect(uploadOutcome(AccessGrants.everything([1]), [])).toBe('refused');
    expect(uploadOutcome(AccessGrants.everything([1]), [1])).toBe('direct');
  });
});
