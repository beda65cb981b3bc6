import { InvalidInput } from '@dam/errors';
import { FieldChanges, fieldChanges } from '@dam/events';
import { LevelTranslation } from './access-levels.repository';
import { AccessLevelWriteDto } from './dto/access-level-write.dto';
import { AccessLevelEntity } from './entities/access-level.entity';

/** The boolean fields a client may write, with their defaults on create. */
const FLAGS = {
  isAlwaysAssignable: false,
  isSelectedOnLoad: false,
  isBrowsable: true,
  showPromotedItems: false,
  showRecentItems: false,
} as const;

type Flag = keyof typeof FLAGS;

export interface PlannedChange {
  columns: Partial<AccessLevelEntity>;
  translation?: LevelTranslation;
}

/**
 * Column values and texts of a write. `current` is undefined on create; `parentId` is the parent the
 * level will have afterwards. Texts go to the entity in the default language, else to the translation
 * of `language` (on create the entity also takes them, as the fallback every level needs).
 */
export function planChange(
  input: AccessLevelWriteDto,
  current: AccessLevelEntity | undefined,
  parentId: number | null,
  language: { code: string; isDefault: boolean },
): PlannedChange {
  const columns: Partial<AccessLevelEntity> = { parentId };
  for (const flag of Object.keys(FLAGS) as Flag[]) {
    const given = input[flag];
    if (given !== undefined && given !== null) columns[flag] = given;
    else if (current === undefined) columns[flag] = FLAGS[flag];
  }
  // Top-level levels always hold their own permissions; below, the client decides (default: inherit).
  if (parentId === null) columns.hasPermissions = true;
  else if (input.hasPermissions !== undefined && input.hasPermissions !== null)
    columns.hasPermissions = input.hasPermissions;
  else if (current === undefined) columns.hasPermissions = false;

  const name = input.name === undefined ? undefined : validName(input.name);
  if (current === undefined && name === undefined)
    throw new InvalidInput('you must supply a name for the access level');
  const description = input.description === undefined ? undefined : emptyToNull(input.description);
  if (language.isDefault || current === undefined) {
    if (name !== undefined) columns.name = name;
    if (description !== undefined) columns.description = description;
  }
  if (language.isDefault || (name === undefined && description === undefined)) return { columns };
  return { columns, translation: { language: language.code, name, description } };
}

/** The fields of a level the audit log compares (texts in the default language). */
const AUDITED: readonly (keyof AccessLevelEntity & string)[] = [
  'name',
  'description',
  'parentId',
  'hasPermissions',
  ...(Object.keys(FLAGS) as Flag[]),
];

/**
 * `{field: {before, after}}` of a level's write: `current` undefined for a creation, `columns` undefined
 * for a deletion; a column the write leaves out keeps its value.
 */
export function levelChanges(
  current: AccessLevelEntity | undefined,
  columns: Partial<AccessLevelEntity> | undefined,
): FieldChanges {
  const after = columns === undefined || current === undefined ? columns : { ...current, ...columns };
  return fieldChanges<Partial<AccessLevelEntity>>(current, after, AUDITED);
}

function validName(raw: string | null): string {
  const name = raw?.trim() ?? '';
  if (name === '') throw new InvalidInput('the name of an access level cannot be blank');
  return name;
}

function emptyToNull(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value;
}
