import * as fs from 'node:fs';

/**
 * The data folder holds the SQLite file (with the URL-signing and webhook secrets) and every stored
 * object: only the service's own user may read it. Folders are made 0700 and files 0600, whatever the
 * umask; a folder or file that already exists, from before or made by hand, is tightened at boot.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `folder` (and missing parents) 0700, and tightens it to 0700 when it already existed. */
export function privateFolderSync(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/** Creates `file` empty and 0600 unless it exists, and tightens an existing one to 0600. */
export function privateFileSync(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** `privateFileSync` for each of `files` that exists (SQLite's -wal and -shm files come and go). */
export function tightenExistingFilesSync(files: string[]): void {
  for (const file of files) {
    if (fs.existsSync(file)) fs.chmodSync(file, PRIVATE_FILE_MODE);
  }
}
