import { ActorUser, isPrivileged } from '@dam/access';
import { BadRequest, Forbidden } from '@dam/platform';

/** Everyone signed in may read this area; only admins (and the application user) change it. */
export function requireAdmin(actor: ActorUser, what: string): void {
  if (!isPrivileged(actor)) throw new Forbidden(`only administrators may manage ${what}`);
}

/** A required, non-blank piece of text, trimmed; `message` when it is missing or blank. */
export function requiredText(raw: unknown, message: string, maxLength = 255): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new BadRequest(message);
  const text = raw.trim();
  if (text.length > maxLength) throw new BadRequest(`${text.slice(0, 40)}... is longer than ${maxLength} characters`);
  return text;
}
