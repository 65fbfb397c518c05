// Notices edits to the config file. Watches the file's folder, not the file, because editors
// save by writing a new file and renaming it over the old one (the old inode's watch goes
// quiet). A stream of folder events: bursts coalesce (debounce), the file is hashed, and only a
// content change reaches `onChange` (an editor touching the file without changing it does not).

import { createHash } from 'node:crypto';
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { Observable, debounceTime, distinctUntilChanged, filter, from, skip, startWith, switchMap } from 'rxjs';

export interface ConfigWatcher {
  close(): void;
}

/** The content hash of the file, or undefined mid-rename or when it is gone (wait for the next event). */
async function hashOf(file: string): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return undefined;
  }
}

/** Events in `file`'s folder that concern it. A folder we cannot watch (some network file systems) gives none: SIGHUP still reloads. */
function folderEvents(file: string): Observable<void> {
  const name = basename(file);
  return new Observable<void>((subscriber) => {
    try {
      const watcher = watch(dirname(file), (_event, changed) => {
        if (changed === null || changed === name) subscriber.next();
      });
      watcher.on('error', () => {});
      return () => watcher.close();
    } catch {
      return undefined;
    }
  });
}

export function watchConfigFile(path: string, onChange: () => void, debounceMs = 150): ConfigWatcher {
  const file = resolve(path);
  const subscription = folderEvents(file)
    .pipe(
      debounceTime(debounceMs),
      // The content at the start is the reference: only a change from it is one.
      startWith(undefined),
      switchMap(() => from(hashOf(file))),
      filter((hash): hash is string => hash !== undefined),
      distinctUntilChanged(),
      skip(1),
    )
    .subscribe(() => onChange());
  return { close: () => subscription.unsubscribe() };
}
