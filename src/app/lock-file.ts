// Reading and writing the lock file (tool pinning): the file I/O around catalog/pinning.ts,
// which stays pure. Writes are atomic: readers see the old file or the new one, never a half.

import { writeFileAtomic } from '../atomic-file.js';
import { readFile } from 'node:fs/promises';
import { parseLock, renderLock, type LockFile } from '../catalog/pinning.js';

/** undefined when the file does not exist; throws a clear Error on a malformed file (path in the message). */
export async function readLock(path: string): Promise<LockFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new Error(`cannot read lock file ${path}: ${code ?? String(err)}`, { cause: err });
  }
  return parseLock(text, path);
}

/** Writes the lock atomically (temp file in the same folder, then rename). */
export async function writeLock(path: string, lock: LockFile): Promise<void> {
  await writeFileAtomic(path, renderLock(lock));
}
