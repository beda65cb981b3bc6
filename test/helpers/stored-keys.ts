import { ObjectDeletions, ObjectStorage } from '@dam/storage';
import { TestApp } from './test-app';

/**
 * The storage keys of a test app under `prefix`, sorted: to check what an operation left behind. Replaced
 * objects are deleted just after the response (ObjectDeletions): this waits for those attempts first.
 */
export async function storedKeys(t: TestApp, prefix: string): Promise<string[]> {
  await t.app.get(ObjectDeletions).settled();
  const keys: string[] = [];
  for await (const key of t.app.get(ObjectStorage).list(prefix)) keys.push(key);
  return keys.sort();
}
