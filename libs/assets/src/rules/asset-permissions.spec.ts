import { AccessGrants, Permission } from '@dam/access';
import { editOutcome, Outcome, uploadOutcome } from './asset-permissions';

function grants(byLevel: Record<number, Permission[]>): AccessGrants {
  return AccessGrants.of(
    new Map(Object.entries(byLevel).map(([id, permissions]) => [Number(id), new Set(permissions)])),
    [1, 2],
  );
}

describe('uploadOutcome and editOutcome', () => {
  it.each<[string, Record<number, Permission[]>, number[], Outcome, Outcome]>([
    ['no levels', { 1: ['upload', 'edit'] }, [], 'refused', 'refused'],
    [
      'full permission everywhere',
      { 1: ['upload', 'edit'], 2: ['upload', 'edit'] },
      [1, 2],
      'direct',
      'direct',
    ],
    [
      'with-approval somewhere',
      { 1: ['upload', 'edit'], 2: ['uploadWithApproval', 'editWithApproval'] },
      [1, 2],
      'approval',
      'approval',
    ],
    ['missing on one level', { 1: ['upload', 'edit'] }, [1, 2], 'refused', 'refused'],
    ['upload but no edit', { 1: ['upload'] }, [1], 'direct', 'refused'],
  ])('%s', (_name, byLevel, levels, upload, edit) => {
    expect(uploadOutcome(grants(byLevel), levels)).toBe(upload);
    expect(editOutcome(grants(byLevel), levels)).toBe(edit);
  });

  it('treats privileged actors as direct', () => {
    expect(uploadOutcome(AccessGrants.everything([1]), [1])).toBe('direct');
    expect(editOutcome(AccessGrants.everything([1]), [1])).toBe('direct');
  });
});
