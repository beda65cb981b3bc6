import { opendir } from 'node:fs/promises';
import * as path from 'node:path';
import { ImportRow } from './import-row';

/** Every regular file below `root` (symbolic links are not followed), in path order. */
export async function readFolder(root: string, categoriesFromFolders: boolean): Promise<ImportRow[]> {
  const files: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for await (const entry of await opendir(folder)) {
      const where = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(where);
      else if (entry.isFile()) files.push(path.relative(root, where).split(path.sep).join('/'));
    }
  };
  await walk(root);
  return files.sort().map((relative) => ({
    path: relative,
    file: path.join(root, relative),
    categories: categoriesFromFolders ? folderCategory(relative) : [],
    attributes: [],
  }));
}

/** The folders above a file as a category name path (`trips/2024/a.jpg` → `trips/2024`); none at the top. */
export function folderCategory(relative: string): Array<{ path: string[] }> {
  const folders = relative
    .split('/')
    .slice(0, -1)
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return folders.length === 0 ? [] : [{ path: folders }];
}
