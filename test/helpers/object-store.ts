/** Placeholder until the storage adapters land: the S3-compatible store for the mysql matrix. */
export interface TestObjectStore {
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startObjectStore(): Promise<TestObjectStore> {
  return { env: {}, stop: async () => undefined };
}
