import { CacheGenerations } from '@dam/database';
import { TestApp } from './test-app';

/**
 * Fixtures that write an area's tables straight into the database (not through its owner) must say so,
 * as an operator editing rows by hand would: bumping the area's generation makes every cache follow.
 */
export async function bumpGenerations(t: TestApp, ...names: string[]): Promise<void> {
  const generations = t.app.get(CacheGenerations);
  for (const name of names) await generations.bump(name);
}
