import { Injectable } from '@nestjs/common';

/**
 * The keys of the root resource. Each area registers the collections it serves, so a key appears
 * exactly when its resource exists.
 */
@Injectable()
export class RootLinks {
  private readonly links = new Map<string, string[]>();

  register(key: string, ...pathBelowRest: string[]): void {
    this.links.set(key, pathBelowRest);
  }

  entries(): Array<[string, string[]]> {
    return [...this.links.entries()].sort(([a], [b]) => a.localeCompare(b));
  }
}
