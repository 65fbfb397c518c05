// Notices edits to the config file. Watches the file's folder, not the file, because editors
// save by writing a new file and renaming it over the old one (the old inode's watch goes
// quiet). Bursts of events coalesce; an event that leaves the content unchanged is ignored.

import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';

export interface ConfigWatcher {
  close(): void;
}

export function watchConfigFile(path: string, onChange: () => void, debounceMs = 150): ConfigWatcher {
  const file = resolve(path);
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let lastHash: string | undefined;
  const hashNow = async () => {
    try {
      return createHash('sha256').update(await readFile(file)).digest('hex');
    } catch {
      return undefined; // mid-rename, or deleted: wait for the next event
    }
  };
  void hashNow().then((h) => (lastHash = h));
  const fire = async () => {
    const h = await hashNow();
    if (h === undefined || h === lastHash) return;
    lastHash = h;
    onChange();
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => void fire(), debounceMs);
    });
    watcher.on('error', () => {});
  } catch {
    // A folder we cannot watch (some network filesystems): SIGHUP still reloads.
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
