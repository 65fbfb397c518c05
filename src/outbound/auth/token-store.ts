// Where tokens and registered clients live: a JSON file outside the config, readable only by the
// user (file 0600 in a 0700 directory), written atomically (temp file + rename) through one queue
// per store, and re-read when another process (`switchboard login`) changed it. Tokens are keyed
// by server name + server URL; registered clients by the AS issuer that issued them.

import { writeFileAtomic } from '../../atomic-file.js';
import { readFile, stat, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
  /** Epoch ms. */
  expiresAt?: number;
  /** Granted scopes (the AS's `scope`, else what was asked). */
  scopes?: string[];
  /** What we asked for: the base of a step-up union. */
  requestedScopes?: string[];
  /**
   * Scopes an operation was refused for (403 insufficient_scope) when no login could run (the
   * gateway serving): the next `switchboard login` asks for them too.
   */
  wantedScopes?: string[];
  issuer: string;
  resource: string;
  grant: 'authorization_code' | 'client_credentials';
  obtainedAt: number;
}

export interface StoredClient {
  clientId: string;
  clientSecret?: string;
  tokenEndpointAuthMethod: string;
  redirectUris?: string[];
  issuer: string;
  registeredAt: number;
}

export interface TokenStore {
  getTokens(server: string, serverUrl: string): Promise<StoredTokens | undefined>;
  setTokens(server: string, serverUrl: string, tokens: StoredTokens | undefined): Promise<void>;
  getClient(issuer: string): Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient | undefined): Promise<void>;
}

interface FileShape {
  version: 1;
  tokens: Record<string, StoredTokens>;
  clients: Record<string, StoredClient>;
}

const empty = (): FileShape => ({ version: 1, tokens: {}, clients: {} });
const tokenKey = (server: string, serverUrl: string) => `${server} ${serverUrl}`;

/** `$XDG_STATE_HOME/switchboard/tokens.json`, else `~/.local/state/switchboard/tokens.json`. */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'switchboard', 'tokens.json');
}

export class FileTokenStore implements TokenStore {
  private cache: FileShape | undefined;
  private cacheStamp = '';
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string = defaultTokenFile()) {}

  async getTokens(server: string, serverUrl: string): Promise<StoredTokens | undefined> {
    return (await this.read()).tokens[tokenKey(server, serverUrl)];
  }

  setTokens(server: string, serverUrl: string, tokens: StoredTokens | undefined): Promise<void> {
    return this.update((f) => {
      const key = tokenKey(server, serverUrl);
      if (tokens) f.tokens[key] = tokens;
      else delete f.tokens[key];
    });
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return (await this.read()).clients[issuer];
  }

  setClient(issuer: string, client: StoredClient | undefined): Promise<void> {
    return this.update((f) => {
      if (client) f.clients[issuer] = client;
      else delete f.clients[issuer];
    });
  }

  private async read(): Promise<FileShape> {
    let stamp: string;
    try {
      const st = await stat(this.path);
      // Every write renames a new file into place, so the inode changes on each one.
      stamp = `${st.ino}:${st.mtimeMs}:${st.size}`;
      // A file someone else can read is a leak waiting to happen: tighten it.
      if ((st.mode & 0o077) !== 0) await chmod(this.path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = empty());
      throw err;
    }
    if (this.cache && stamp === this.cacheStamp) return this.cache;
    let parsed: FileShape;
    try {
      const raw = JSON.parse(await readFile(this.path, 'utf8')) as Partial<FileShape>;
      parsed = { version: 1, tokens: raw.tokens ?? {}, clients: raw.clients ?? {} };
    } catch {
      parsed = empty(); // a corrupt file means logging in again, not a crash
    }
    this.cache = parsed;
    this.cacheStamp = stamp;
    return parsed;
  }

  private update(change: (f: FileShape) => void): Promise<void> {
    const run = this.queue.then(async () => {
      this.cacheStamp = ''; // always start from what is on disk now
      const f = structuredClone(await this.read());
      change(f);
      await writeFileAtomic(this.path, `${JSON.stringify(f, null, 2)}\n`, { mode: 0o600, folderMode: 0o700 });
      this.cacheStamp = ''; // next read re-stats and re-parses what we wrote
    });
    this.queue = run.catch(() => {});
    return run;
  }
}

/** For tests and for callers that must not touch the disk. */
export class MemoryTokenStore implements TokenStore {
  readonly tokens = new Map<string, StoredTokens>();
  readonly clients = new Map<string, StoredClient>();
  async getTokens(server: string, serverUrl: string) {
    return this.tokens.get(tokenKey(server, serverUrl));
  }
  async setTokens(server: string, serverUrl: string, tokens: StoredTokens | undefined) {
    if (tokens) this.tokens.set(tokenKey(server, serverUrl), tokens);
    else this.tokens.delete(tokenKey(server, serverUrl));
  }
  async getClient(issuer: string) {
    return this.clients.get(issuer);
  }
  async setClient(issuer: string, client: StoredClient | undefined) {
    if (client) this.clients.set(issuer, client);
    else this.clients.delete(issuer);
  }
}
