import { CategoryTree } from '../transfer/catalog';
import { Connection } from '../transfer/connection';
import { CategoryRef } from './import-row';

/** A row cannot be imported (a nonexistent id, ...): that row fails, the others go on. */
export class RowFailed extends Error {}

/**
 * Category ids for a row's categories: ids must exist; name paths are found in the tree or created,
 * parents first, each path once per run even when several rows need it at the same time. In a dry run
 * nothing is created: the paths that would be are named instead.
 */
export class CategoryResolver {
  private readonly creating = new Map<string, Promise<number>>();
  private planned = -1;

  constructor(
    private readonly connection: Connection,
    private readonly tree: CategoryTree,
    private readonly dryRun: boolean,
  ) {}

  async ids(refs: CategoryRef[]): Promise<{ ids: number[]; created: string[] }> {
    const ids: number[] = [];
    const created: string[] = [];
    for (const ref of refs) {
      if ('id' in ref) {
        if (!this.tree.has(ref.id)) throw new RowFailed(`category ${ref.id} does not exist`);
        ids.push(ref.id);
        continue;
      }
      const known = this.tree.idOf(ref.path);
      const id = await this.ensure(ref.path);
      // Planned in a dry run (negative ids): every row that needs the path says it would be created.
      if (known === undefined || id < 0) created.push(ref.path.join('/'));
      ids.push(id);
    }
    return { ids: [...new Set(ids)], created };
  }

  private ensure(path: string[]): Promise<number> {
    const known = this.tree.idOf(path);
    if (known !== undefined) return Promise.resolve(known);
    const key = path.join('\u0000');
    let pending = this.creating.get(key);
    if (pending === undefined) {
      pending = this.create(path);
      this.creating.set(key, pending);
      // A failed creation may be tried again by a later row.
      pending.catch(() => this.creating.delete(key));
    }
    return pending;
  }

  private async create(path: string[]): Promise<number> {
    const parent = path.length > 1 ? await this.ensure(path.slice(0, -1)) : undefined;
    if (this.dryRun) {
      const id = this.planned--;
      this.tree.add(id, path);
      return id;
    }
    const { body } = await this.connection.sendJson<{ id: number }>(
      'POST',
      this.connection.rest('categories'),
      {
        name: path[path.length - 1],
        ...(parent === undefined ? {} : { parent: this.connection.rest(`categories/${parent}`) }),
      },
    );
    if (body === undefined)
      throw new RowFailed(`creating the category ${path.join('/')} answered no category`);
    this.tree.add(body.id, path);
    return body.id;
  }
}
