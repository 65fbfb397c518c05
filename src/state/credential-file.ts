// The default home of per-user credentials: one JSON file of sealed records (0600 in a 0700
// directory), written atomically (temp file + rename) through one queue, re-read when another
// process (a CLI revoking) changed it. Only sealed strings reach the disk.

import { writeFileAtomic } from '../atomic-file.js';
import { type FSWatcher, mkdirSync, watch as watchPath } from 'node:fs';
import { chmod, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Sealed } from './credential-keys.js';
import type { SealedBackend } from './credentials.js';

/** `$XDG_STATE_HOME/switchboard/credentials.json`, else `~/.local/state/switchboard/credentials.json`. */
export function defaultCredentialFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'switchboard', 'credentials.json');
}

/**
 * On disk, records are [user, server, sealed] triples, not objects keyed by name: a user called
 * "__proto__" is a user like any other, and nothing is ever looked up on a prototype.
 */
interface FileShape {
  version: 1;
  records: [string, string, Sealed][];
}

type Records = Map<string, Map<string, Sealed>>;

export class FileCredentialBackend implements SealedBackend {
  private cache: Records | undefined;
  private cacheStamp = '';
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string = defaultCredentialFile()) {}

  async read(user: string, server: string): Promise<Sealed | undefined> {
    return (await this.load()).get(user)?.get(server);
  }

  write(user: string, server: string, sealed: Sealed): Promise<void> {
    return this.update((r) => {
      let servers = r.get(user);
      if (servers === undefined) r.set(user, (servers = new Map()));
      servers.set(server, sealed);
      return true;
    }).then(() => {});
  }

  remove(user: string, server: string): Promise<boolean> {
    return this.update((r) => {
      const servers = r.get(user);
      if (servers?.delete(server) !== true) return false;
      if (servers.size === 0) r.delete(user);
      return true;
    });
  }

  async entries(user?: string): Promise<{ user: string; server: string; sealed: Sealed }[]> {
    const out: { user: string; server: string; sealed: Sealed }[] = [];
    for (const [u, servers] of await this.load()) {
      if (user !== undefined && u !== user) continue;
      for (const [server, sealed] of servers) out.push({ user: u, server, sealed });
    }
    return out;
  }

  replace(user: string, server: string, expected: Sealed, next: Sealed): Promise<boolean> {
    return this.update((r) => {
      const servers = r.get(user);
      if (servers?.get(server) !== expected) return false;
      servers.set(server, next);
      return true;
    });
  }

  watch(listener: () => void): () => void {
    // The folder, not the file: every write renames a new file into place (a watch on the file
    // would follow the old inode). Made now if missing, as a write would make it.
    const folder = dirname(this.path);
    const name = basename(this.path);
    let watcher: FSWatcher;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      watcher = watchPath(folder, { persistent: false }, (_event, file) => {
        if (file === null || file === name) listener();
      });
    } catch {
      // No way to hear another process's changes (inotify limits, say): this process's own still count.
      return () => {};
    }
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  }

  async close(): Promise<void> {
    await this.queue;
  }

  private async load(): Promise<Records> {
    let stamp: string;
    try {
      const st = await stat(this.path);
      // Every write renames a new file into place, so the inode changes on each one.
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
      if ((st.mode & 0o077) !== 0) await chmod(this.path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = new Map());
      throw err;
    }
    if (this.cache && stamp === this.cacheStamp) return this.cache;
    // Unlike tokens.json, a file that does not parse is an error, not an empty store: the next
    // write would otherwise replace every user's credentials with nothing.
    const raw = JSON.parse(await readFile(this.path, 'utf8')) as Partial<FileShape>;
    if (raw.version !== 1 || !Array.isArray(raw.records)) throw new Error(`${this.path}: not a switchboard credentials file`);
    const records: Records = new Map();
    for (const [user, server, sealed] of raw.records) {
      let servers = records.get(user);
      if (servers === undefined) records.set(user, (servers = new Map()));
      servers.set(server, sealed);
    }
    this.cache = records;
    this.cacheStamp = stamp;
    return records;
  }

  /** Applies `change` to what is on disk now and writes the result if it says it changed something. */
  private update(change: (r: Records) => boolean): Promise<boolean> {
    const run = this.queue.then(async () => {
      this.cacheStamp = ''; // always start from what is on disk now
      const records = await this.load();
      // A copy to change: a failed write must not leave the cache saying what the disk does not.
      const next: Records = new Map([...records].map(([u, s]) => [u, new Map(s)]));
      if (!change(next)) return false;
      const shape: FileShape = { version: 1, records: [...next].flatMap(([u, s]) => [...s].map(([server, sealed]): [string, string, Sealed] => [u, server, sealed])) };
      await writeFileAtomic(this.path, `${JSON.stringify(shape, null, 1)}\n`, { mode: 0o600, folderMode: 0o700 });
      this.cacheStamp = ''; // the next read re-stats and re-parses what was written
      return true;
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
