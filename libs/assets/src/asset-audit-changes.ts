import { AttributesCatalog } from '@dam/attributes';
import { FieldChanges } from '@dam/events';
import { AssetChanges, sameIds } from './asset-changes';
import { AttributeValue } from './ports/asset-state';

/** The part of an asset's state an edit changes: its values, levels, categories and parents. */
export interface EditedState {
  values: readonly AttributeValue[];
  accessLevelIds: readonly number[];
  categoryIds: readonly number[];
  parentIds: readonly number[];
}

/**
 * `{field: {before, after}}` of an edit, for the audit log: each changed value keyed by its attribute's
 * label (with the language when it is not the default value: `Title (de)`), and the id lists of levels,
 * categories and parents when they changed.
 */
export async function auditChanges(
  catalog: AttributesCatalog,
  language: string,
  before: EditedState,
  changes: AssetChanges,
): Promise<FieldChanges> {
  const ids = [...new Set(changes.values.map((change) => change.attributeId))];
  const labels = new Map(
    (await catalog.byIds(ids, language)).map((definition) => [definition.id, definition.label]),
  );
  const result: FieldChanges = {};
  for (const change of changes.values) {
    const label = labels.get(change.attributeId) ?? `attribute ${change.attributeId}`;
    const key = change.language === '' ? label : `${label} (${change.language})`;
    const previous = before.values.find(
      (value) => value.attributeId === change.attributeId && value.language === change.language,
    );
    result[key] = { before: previous?.value ?? null, after: change.value };
  }
  const lists: Array<[string, readonly number[], number[] | undefined]> = [
    ['accessLevels', before.accessLevelIds, changes.accessLevelIds],
    ['categories', before.categoryIds, changes.categoryIds],
    ['parents', before.parentIds, changes.parentIds],
  ];
  for (const [field, previous, next] of lists) {
    if (next !== undefined && !sameIds(previous, next))
      result[field] = { before: [...previous], after: next };
  }
  return result;
}
