import { AccessGrants, Permission } from '@dam/access';

/** `direct`: allowed outright; `approval`: allowed, but others see it only after approval. */
export type Outcome = 'direct' | 'approval' | 'refused';

/**
 * The outcome on a set of access levels when `full` (upload, edit) acts at once and `withApproval`
 * (uploadWithApproval, editWithApproval) goes through approval: every level needs one of the two.
 */
export function outcomeOn(
  grants: AccessGrants,
  levelIds: readonly number[],
  full: Permission,
  withApproval: Permission,
): Outcome {
  if (levelIds.length === 0) return 'refused';
  let outcome: Outcome = 'direct';
  for (const levelId of levelIds) {
    if (grants.has(levelId, full)) continue;
    if (!grants.has(levelId, withApproval)) return 'refused';
    outcome = 'approval';
  }
  return outcome;
}

export function uploadOutcome(grants: AccessGrants, levelIds: readonly number[]): Outcome {
  return outcomeOn(grants, levelIds, 'upload', 'uploadWithApproval');
}

export function editOutcome(grants: AccessGrants, levelIds: readonly number[]): Outcome {
  return outcomeOn(grants, levelIds, 'edit', 'editWithApproval');
}
