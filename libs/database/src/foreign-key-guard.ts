import { InvalidInput } from '@dam/errors';
import { isForeignKeyViolation } from './database-errors';

/**
 * Runs a write that can lose a race with another request (a referenced row deleted, or a referencing
 * row added, between the service's checks and the write): the database refuses it, and the client gets
 * a 400 with `message` instead of a 500.
 */
export async function refuseForeignKeyViolations<T>(message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new InvalidInput(message);
    throw error;
  }
}
