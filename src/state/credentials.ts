// Per-user credentials for upstream servers (issue 33): what a credential is, the store keyed by
// (user, server) the gateway talks to, and the one implementation of it, which seals every record
// (credential-keys.ts) before a backend (a file, or Redis) sees it and runs refreshes single-flight.

import { CredentialDecryptError, Keyring, type Sealed } from './credential-keys.js';

/**
 * OAuth tokens as outbound/auth/token-store.ts keeps them (StoredTokens). The state layer may not
 * import outbound, so the shape is repeated here; test/unit/state/credentials.test.ts fails to
 * compile if the two drift apart.
 */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
  expiresAt?: number;
  scopes?: string[];
  requestedScopes?: string[];
  wantedScopes?: string[];
  issuer: string;
  resource: string;
  grant: 'authorization_code' | 'client_credentials';
  obtainedAt: number;
}

/** OAuth tokens, or named secrets that fill headers or env (`${user.GITHUB_TOKEN}`). */
export type Credential = { readonly kind: 'oauth'; readonly tokens: OAuthTokens } | { readonly kind: 'secrets'; readonly values: Readonly<Record<string, string>> };

export interface CredentialRecord {
  readonly credential: Credential;
  /** Epoch ms of the put (the user connecting); a refresh keeps it. */
  readonly obtainedAt: number;
  /** Epoch ms of the last put or refresh. */
  readonly updatedAt: number;
}

/** One line of `list`: who has a credential for what, and which key seals it. Never a secret. */
export interface CredentialEntry {
  readonly user: string;
  readonly server: string;
  readonly keyId: string | undefined;
}

export interface RotateResult {
  /** Records re-sealed under the current key. */
  readonly rotated: number;
  /** Records no key of the keyring opens (they stay as they are; delete them, or find the key). */
  readonly failed: readonly { user: string; server: string }[];
}

export interface CredentialStore {
  /** The record, or undefined when there is none. Throws CredentialDecryptError when it does not open. */
  get(user: string, server: string): Promise<CredentialRecord | undefined>;
  /** Stores a new credential (a connect): obtainedAt and updatedAt are now. */
  put(user: string, server: string, credential: Credential): Promise<CredentialRecord>;
  /** Revokes (forgets) it; whether there was one. */
  delete(user: string, server: string): Promise<boolean>;
  /** Every (user, server) with a credential, or one user's; decrypts nothing. */
  list(user?: string): Promise<CredentialEntry[]>;
  /**
   * Runs `doRefresh` with the current record and stores what it returns (obtainedAt kept). Callers
   * refreshing the same pair at the same time share one run and its outcome; with Redis, replicas
   * take turns (a lock per pair), so `doRefresh` must look at `current` first: another replica may
   * have refreshed it already, and then it returns `current.credential` itself (nothing is
   * written). A rejection stores nothing and reaches every caller.
   */
  refresh(user: string, server: string, doRefresh: (current: CredentialRecord | undefined) => Promise<Credential>): Promise<CredentialRecord>;
  /** Re-seals every record not under the keyring's current key. */
  rotate(): Promise<RotateResult>;
  /**
   * Calls `listener` after records changed: through this store, or in another process (the file
   * renamed into place by `switchboard users revoke`, a write on another replica's Redis). It says
   * only that something changed, never what. Returns the function that stops it.
   */
  watch(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Where sealed records live. It sees only Sealed strings, never a secret. */
export interface SealedBackend {
  read(user: string, server: string): Promise<Sealed | undefined>;
  write(user: string, server: string, sealed: Sealed): Promise<void>;
  remove(user: string, server: string): Promise<boolean>;
  /** Every record, or one user's. */
  entries(user?: string): Promise<{ user: string; server: string; sealed: Sealed }[]>;
  /** Writes `next` only if the record is still `expected` (a rotation must not undo a concurrent put). */
  replace(user: string, server: string, expected: Sealed, next: Sealed): Promise<boolean>;
  /**
   * Waits for, then holds, the pair's refresh lock across processes; resolves to its release.
   * Absent where one process owns the records (the file backend: the gateway refreshes, the CLI
   * only lists and revokes).
   */
  lock?(user: string, server: string): Promise<() => Promise<void>>;
  /** Calls `listener` when another process may have changed records; returns the function that stops it. */
  watch?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The CredentialStore over any backend: seals on the way in, opens on the way out. */
export class SealedCredentialStore implements CredentialStore {
  private readonly flights = new Map<string, Promise<CredentialRecord>>();
  private readonly listeners = new Set<() => void>();
  private stopBackendWatch: (() => void) | undefined;

  constructor(
    private readonly backend: SealedBackend,
    private readonly keyring: Keyring,
    private readonly now: () => number = Date.now,
  ) {}

  async get(user: string, server: string): Promise<CredentialRecord | undefined> {
    const sealed = await this.backend.read(user, server);
    return sealed === undefined ? undefined : this.open(user, server, sealed);
  }

  async put(user: string, server: string, credential: Credential): Promise<CredentialRecord> {
    const at = this.now();
    return this.write(user, server, { credential, obtainedAt: at, updatedAt: at });
  }

  async delete(user: string, server: string): Promise<boolean> {
    const removed = await this.backend.remove(user, server);
    if (removed) this.changed();
    return removed;
  }

  async list(user?: string): Promise<CredentialEntry[]> {
    return (await this.backend.entries(user)).map((e) => ({ user: e.user, server: e.server, keyId: Keyring.keyIdOf(e.sealed) }));
  }

  refresh(user: string, server: string, doRefresh: (current: CredentialRecord | undefined) => Promise<Credential>): Promise<CredentialRecord> {
    const key = JSON.stringify([user, server]);
    const running = this.flights.get(key);
    if (running !== undefined) return running;
    const flight = (async () => {
      const release = await this.backend.lock?.(user, server);
      try {
        // Read under the lock: what a replica that held it before stored is what this one refreshes from.
        const current = await this.get(user, server);
        const credential = await doRefresh(current);
        if (current !== undefined && credential === current.credential) return current;
        return await this.write(user, server, { credential, obtainedAt: current?.obtainedAt ?? this.now(), updatedAt: this.now() });
      } finally {
        // A release that fails (Redis away) leaves the lock to expire on its own.
        await release?.().catch(() => {});
      }
    })();
    this.flights.set(key, flight);
    // Cleared when settled, so the next refresh (after expiry, say) runs again.
    const clear = () => this.flights.delete(key);
    flight.then(clear, clear);
    return flight;
  }

  async rotate(): Promise<RotateResult> {
    let rotated = 0;
    const failed: { user: string; server: string }[] = [];
    for (const { user, server, sealed } of await this.backend.entries()) {
      if (Keyring.keyIdOf(sealed) === this.keyring.currentId) continue;
      let plaintext: string;
      try {
        plaintext = this.keyring.open(user, server, sealed);
      } catch (err) {
        if (!(err instanceof CredentialDecryptError)) throw err;
        failed.push({ user, server });
        continue;
      }
      // Lost to a concurrent put or delete: that write is newer, and a put is sealed with the current key.
      if (await this.backend.replace(user, server, sealed, this.keyring.seal(user, server, plaintext))) rotated++;
    }
    if (rotated > 0) this.changed();
    return { rotated, failed };
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.stopBackendWatch === undefined && this.backend.watch !== undefined) this.stopBackendWatch = this.backend.watch(() => this.changed());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.stopBackendWatch?.();
      this.stopBackendWatch = undefined;
    };
  }

  close(): Promise<void> {
    this.stopBackendWatch?.();
    this.stopBackendWatch = undefined;
    this.listeners.clear();
    return this.backend.close();
  }

  private async write(user: string, server: string, record: CredentialRecord): Promise<CredentialRecord> {
    await this.backend.write(user, server, this.keyring.seal(user, server, JSON.stringify(record)));
    this.changed();
    return record;
  }

  /** Tells the watchers; one that throws is its own problem, not the writer's. */
  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {}
    }
  }

  private open(user: string, server: string, sealed: Sealed): CredentialRecord {
    // GCM has authenticated the bytes: what parses is what this store wrote for this pair.
    return JSON.parse(this.keyring.open(user, server, sealed)) as CredentialRecord;
  }
}
