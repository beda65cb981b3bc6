import { allPages, Connection, eachLimited } from './connection';

export interface Attribute {
  id: number;
  label: string;
  staticName: string | null;
  typeId: number;
  isReadOnly: boolean;
  displayOrder: number;
}

interface CategoryNode {
  id: number;
  name: string;
  children?: CategoryNode[];
}

/** Attribute types that have their own manifest column instead of `attr:` (access levels, categories). */
const OWN_COLUMN_TYPES = new Set([10, 11]);
/** System attributes with their own manifest column. */
const OWN_COLUMN_NAMES = new Set(['title', 'description', 'keywords', 'accessLevels', 'categories']);

/** The library's attributes, read once per run (every signed-in user may read them). */
export class AttributeCatalog {
  private constructor(readonly attributes: Attribute[]) {}

  static async load(connection: Connection): Promise<AttributeCatalog> {
    const urls = await allPages<string>(connection.http, connection.rest('attributes?pageSize=1000'));
    const attributes: Attribute[] = [];
    await eachLimited(urls, 4, async (url) => {
      const attribute = await connection.http.json<Attribute>('GET', url);
      if (attribute !== undefined) attributes.push(attribute);
    });
    attributes.sort((a, b) => a.displayOrder - b.displayOrder || a.id - b.id);
    return new AttributeCatalog(attributes);
  }

  /** The system attribute with that static name (title, keywords, categories, ...). */
  system(staticName: string): Attribute | undefined {
    return this.attributes.find((attribute) => attribute.staticName === staticName);
  }

  /** The attribute an `attr:<label>` column names: the exact label, else the only one equal ignoring case. */
  byLabel(label: string): Attribute | undefined {
    const exact = this.attributes.find((attribute) => attribute.label === label);
    if (exact !== undefined) return exact;
    const folded = this.attributes.filter(
      (attribute) => attribute.label.toLowerCase() === label.toLowerCase(),
    );
    return folded.length === 1 ? folded[0] : undefined;
  }

  /** Why an `attr:` column cannot be written, or undefined when it can. */
  refusal(attribute: Attribute): string | undefined {
    if (attribute.isReadOnly) return 'is read-only';
    if (OWN_COLUMN_TYPES.has(attribute.typeId)) return `has its own column (${attribute.staticName})`;
    return undefined;
  }

  /** The attributes `dam export` writes as `attr:` columns: writable, and without a column of their own. */
  exportable(): Attribute[] {
    return this.attributes.filter(
      (attribute) =>
        this.refusal(attribute) === undefined && !OWN_COLUMN_NAMES.has(attribute.staticName ?? ''),
    );
  }
}

/** The category tree as name paths (`Trips/2024`), read once per run. */
export class CategoryTree {
  private readonly idsByPath = new Map<string, number>();
  private readonly pathsById = new Map<number, string[]>();

  private constructor(nodes: CategoryNode[]) {
    const walk = (node: CategoryNode, above: string[]): void => {
      const path = [...above, node.name];
      this.pathsById.set(node.id, path);
      if (!this.idsByPath.has(pathKey(path))) this.idsByPath.set(pathKey(path), node.id);
      for (const child of node.children ?? []) walk(child, path);
    };
    nodes.forEach((node) => walk(node, []));
  }

  static async load(connection: Connection): Promise<CategoryTree> {
    return new CategoryTree(
      (await connection.http.json<CategoryNode[]>('GET', connection.rest('category-search'))) ?? [],
    );
  }

  has(id: number): boolean {
    return this.pathsById.has(id);
  }

  idOf(path: string[]): number | undefined {
    return this.idsByPath.get(pathKey(path));
  }

  pathOf(id: number): string[] | undefined {
    return this.pathsById.get(id);
  }

  add(id: number, path: string[]): void {
    this.pathsById.set(id, path);
    this.idsByPath.set(pathKey(path), id);
  }
}

function pathKey(path: string[]): string {
  return path.join('\u0000');
}

/**
 * A category name path as a manifest cell: `/`-joined names; one made only of digits gets a leading `/`
 * so that it is not read as an id.
 */
export function categoryCell(path: string[]): string {
  const joined = path.join('/');
  return /^\d+$/.test(joined) ? `/${joined}` : joined;
}
