/** One attribute value to write; `value` null removes it. `language` '' is the default/neutral value. */
export interface ValueChange {
  attributeId: number;
  language: string;
  value: string | null;
}

/**
 * What one PUT changes on an asset, already validated and reduced to real differences. Applied at once
 * by users with edit permission, or stored (as JSON) until approval for those with edit-with-approval.
 */
export interface AssetChanges {
  values: ValueChange[];
  accessLevelIds?: number[];
  categoryIds?: number[];
  parentIds?: number[];
}

export function isEmpty(changes: AssetChanges): boolean {
  return (
    changes.values.length === 0 &&
    changes.accessLevelIds === undefined &&
    changes.categoryIds === undefined &&
    changes.parentIds === undefined
  );
}

/** A later edit on top of one already awaiting approval: the later one wins field by field. */
export function mergeChanges(earlier: AssetChanges, later: AssetChanges): AssetChanges {
  const values = new Map<string, ValueChange>();
  for (const change of [...earlier.values, ...later.values]) {
    values.set(`${change.attributeId}/${change.language}`, change);
  }
  return {
    values: [...values.values()],
    accessLevelIds: later.accessLevelIds ?? earlier.accessLevelIds,
    categoryIds: later.categoryIds ?? earlier.categoryIds,
    parentIds: later.parentIds ?? earlier.parentIds,
  };
}

/** Reads changes stored by `JSON.stringify`; anything unreadable counts as no change. */
export function parseStoredChanges(json: string): AssetChanges {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { values: [] };
  }
  if (typeof raw !== 'object' || raw === null) return { values: [] };
  const record = raw as Record<string, unknown>;
  const values = Array.isArray(record.values) ? record.values.filter(isValueChange) : [];
  return {
    values,
    accessLevelIds: idsOrUndefined(record.accessLevelIds),
    categoryIds: idsOrUndefined(record.categoryIds),
    parentIds: idsOrUndefined(record.parentIds),
  };
}

function isValueChange(value: unknown): value is ValueChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  return (
    typeof change.attributeId === 'number' &&
    typeof change.language === 'string' &&
    (typeof change.value === 'string' || change.value === null)
  );
}

function idsOrUndefined(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id));
}

/** Same members, order aside. */
export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}
