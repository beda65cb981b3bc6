import { FieldChanges, fieldChanges, SECRET_CHANGED } from '@dam/events';
import { UserEntity } from './entities/user.entity';

/** A user's fields as the audit log compares them (groups as their sorted ids; never the password). */
interface AuditedUser {
  username: string;
  emailAddress: string | null;
  forename: string | null;
  surname: string | null;
  isAdmin: boolean;
  groupIds: number[];
}

const FIELDS = ['username', 'emailAddress', 'forename', 'surname', 'isAdmin', 'groupIds'] as const;

/** The fields of `user` the audit log keeps (a snapshot: later changes to the entity do not reach it). */
export function auditedUser(user: UserEntity): AuditedUser {
  return {
    username: user.username,
    emailAddress: user.emailAddress,
    forename: user.forename,
    surname: user.surname,
    isAdmin: user.isAdmin,
    groupIds: (user.groups ?? []).map((group) => group.id).sort((a, b) => a - b),
  };
}

/**
 * `{field: {before, after}}` of a user's write (either side undefined for a creation or deletion). A new
 * password is named, `password: {before: null, after: null}`: neither it nor its hash is ever kept.
 */
export function userChanges(
  before: AuditedUser | undefined,
  after: AuditedUser | undefined,
  passwordChanged = false,
): FieldChanges {
  const changes = fieldChanges<AuditedUser>(before, after, FIELDS);
  if (passwordChanged) changes.password = { ...SECRET_CHANGED };
  return changes;
}
