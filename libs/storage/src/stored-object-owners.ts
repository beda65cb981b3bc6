/**
 * Which rows refer to stored objects, asked by the orphan sweep. Each lib that stores objects registers
 * the key prefix it owns (`assets/`, `renditions/`, `temp/`, `access-level-images/`) with a function that
 * answers which of the given keys its rows still refer to. A key under no registered prefix is never
 * deleted (the sweep only reports it).
 */
export type ReferencedKeys = (keys: string[]) => Promise<Set<string>>;

/**
 * Every key the owner's rows refer to (in any order, each at least once), so the sweep can report rows
 * whose object is missing. Read in pages by the owner; never buffered whole.
 */
export type AllReferencedKeys = () => AsyncIterable<string>;

/** One registered owner. */
export interface StoredObjectOwner {
  prefix: string;
  referenced: ReferencedKeys;
  keys?: AllReferencedKeys;
}

export class StoredObjectOwners {
  private readonly owners = new Map<string, StoredObjectOwner>();
  private readonly holders: ReferencedKeys[] = [];

  register(prefix: string, referenced: ReferencedKeys, keys?: AllReferencedKeys): void {
    if (!prefix.endsWith('/')) throw new Error(`a stored-object prefix ends with '/': ${prefix}`);
    this.owners.set(prefix, { prefix, referenced, keys });
  }

  /**
   * Rows outside the owners that keep objects of any prefix (a trashed asset's files): a key one of them
   * refers to is never an orphan.
   */
  hold(referenced: ReferencedKeys): void {
    this.holders.push(referenced);
  }

  /** Which of `keys` the owner's rows (`referenced`) or a holder's rows refer to. */
  async kept(keys: string[], referenced: ReferencedKeys): Promise<Set<string>> {
    const kept = await referenced(keys);
    for (const holder of this.holders) {
      const rest = keys.filter((key) => !kept.has(key));
      if (rest.length === 0) break;
      for (const key of await holder(rest)) kept.add(key);
    }
    return kept;
  }

  /** The owner of `key`, by the longest registered prefix. */
  ownerOf(key: string): { prefix: string; referenced: ReferencedKeys } | undefined {
    let found: StoredObjectOwner | undefined;
    for (const [prefix, owner] of this.owners) {
      if (key.startsWith(prefix) && (found === undefined || prefix.length > found.prefix.length))
        found = owner;
    }
    return found === undefined ? undefined : { prefix: found.prefix, referenced: found.referenced };
  }

  prefixes(): string[] {
    return [...this.owners.keys()].sort();
  }

  /** Every registered owner, by prefix. */
  all(): StoredObjectOwner[] {
    return this.prefixes().map((prefix) => this.owners.get(prefix) as StoredObjectOwner);
  }
}
