// Replacing a file so that a reader sees the old text or the new, never half of one, and a crash
// leaves no torn file: the text goes to a temporary file in the same folder (a rename never
// crosses file systems), which is then renamed over the target; a failed write removes it.
// Used by every file the gateway rewrites: tokens, credentials, the lock file, the config on `add`.

import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode (e.g. 0o600 for secrets); default: the process's umask applies. */
  mode?: number;
  /** Make the folder first, with this mode (e.g. 0o700), when it is missing. */
  folderMode?: number;
}

export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.folderMode !== undefined) await mkdir(dirname(path), { recursive: true, mode: options.folderMode });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx', ...(options.mode === undefined ? {} : { mode: options.mode }) });
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
}
