import { AccessGrants, Permission, Viewer } from '@dam/access';
import { AssetRecord } from '../ports/asset-state';
import { assetVisibleTo, isLive } from './asset-visibility';

const actor = { id: 1, username: 'actor', isAdmin: false, isApplication: false };

function viewer(byLevel: Record<number, Permission[]>, all = false): Viewer {
  const levels = [1, 2];
  const grants = all
    ? AccessGrants.everything(levels)
    : AccessGrants.of(
        new Map(Object.entries(byLevel).map(([id, permissions]) => [Number(id), new Set(permissions)])),
        levels,
      );
  return { actor, grants };
}

function asset(submitted: boolean, uploadPending: boolean, addedByUserId: number | null): AssetRecord {
  const at = new Date(0);
  return {
    id: 1,
    submitted,
    uploadPending,
    contentPending: false,
    archived: false,
    contentSha256: null,
    type: 'File',
    assetTypeId: null,
    addedByUserId,
    createdAt: at,
    updatedAt: at,
  };
}

describe('isLive', () => {
  it.each([
    [true, false, true],
    [true, true, false],
    [false, false, false],
    [false, true, false],
  ])('submitted %s, uploadPending %s -> %s', (submitted, uploadPending, expected) => {
    expect(isLive({ submitted, uploadPending })).toBe(expected);
  });
});

describe('assetVisibleTo', () => {
  const live = asset(true, false, 2);
  const pending = asset(true, true, 2);
  const unsubmitted = asset(false, false, 2);
  const own = asset(false, false, 1);
  it.each([
    ['admin sees an unsubmitted asset', viewer({}, true), unsubmitted, [1], true],
    ['the uploader sees their own unsubmitted asset without grants', viewer({}), own, [1], true],
    ['nobody else sees an asset without view', viewer({ 1: ['download'] }), live, [1], false],
    ['view on one level shows a live asset', viewer({ 1: ['view'] }), live, [1, 2], true],
    ['view alone hides an asset awaiting upload approval', viewer({ 1: ['view'] }), pending, [1], false],
    ['view alone hides an unsubmitted asset', viewer({ 1: ['view'] }), unsubmitted, [1], false],
    ['view and approve on every level shows it', viewer({ 1: ['view', 'approve'] }), pending, [1], true],
    [
      'approve on only some levels does not',
      viewer({ 1: ['view', 'approve'], 2: ['view'] }),
      pending,
      [1, 2],
      false,
    ],
    ['approve without view does not', viewer({ 1: ['approve'] }), pending, [1], false],
  ])('%s', (_name, who, record, accessLevelIds, expected) => {
    expect(assetVisibleTo(who, { asset: record, accessLevelIds })).toBe(expected);
  });
});
