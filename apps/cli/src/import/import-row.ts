/** A category named by id, or by its name path from the top (`['Trips', '2024']`). */
export type CategoryRef = { id: number } | { path: string[] };

/** One file to import: from a manifest line or found in a folder. */
export interface ImportRow {
  /** The manifest line (where the row ends), for messages; undefined in a folder import. */
  line?: number;
  /** As reported: relative to the folder or the manifest, `/`-separated. */
  path: string;
  /** Where the file is on disk. */
  file: string;
  title?: string;
  description?: string;
  keywords?: string[];
  /** Ids from the row; the `--access-level` default applies when undefined. */
  accessLevels?: number[];
  categories: CategoryRef[];
  /** `attr:<label>` cells that are not empty, in column order. */
  attributes: Array<{ label: string; value: string }>;
}

/** The manifest or the command line is wrong: nothing was sent, exit code 2. */
export class ManifestError extends Error {}
