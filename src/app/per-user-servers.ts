// The app's side of per-user servers (issue 33): the credential store (opened on first use), the
// connect pages once there are any, opening a user's own connection (per-user-open.ts), telling
// whether one still holds the user's current credential, and the listing connection each
// per-user server's catalog comes from (docs/per-user-credentials.md, Catalog).

import type { GatewayConfig, ServerConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../observability/audit.js';
import { tokenStoreFor } from '../outbound/auth/login.js';
import type { ServerAuth } from '../outbound/auth/types.js';
import type { ConnectAsker } from '../router/connect-ask.js';
import { credentialSettings, perUserOf } from '../router/per-user-config.js';
import { refusesCredential } from '../router/per-user.js';
import type { Router } from '../router/router.js';
import type { Connection } from '../router/session.js';
import type { CredentialStore } from '../state/credentials.js';
import { openCredentialStore } from '../state/open-credentials.js';
import type { StateStore } from '../state/store.js';
import { dropRefused, openPerUserConnection, type PerUserOpenDeps, type UserEntry, userEntry } from './per-user-open.js';

export interface PerUserHost {
  router(): Router;
  readonly audit: AuditLog;
  readonly logger: Logger;
  config(): GatewayConfig;
  /** The StateStore (Redis: credentials live there too), once opened. */
  stateStore(): StateStore | undefined;
  /** A shared connection of `server` (not connected), listing with `listing`; without: one waiting in `needs-connect`. */
  shared(server: ServerConfig, listing?: UserEntry): Connection;
  /** `user`'s own connection to `entry` (not connected). */
  own(entry: ServerConfig, user: string, auth: ServerAuth | undefined): Connection;
  /** The catalog may have changed. */
  invalidate(): void;
}

/** Where a user connects `server` (the connect pages of src/connect/). */
export function connectUrl(config: GatewayConfig, server: string): string {
  const base = credentialSettings(config).publicUrl ?? "<the gateway's URL>";
  return `${base.replace(/\/$/, '')}/connect/${encodeURIComponent(server)}`;
}

/** A per-user server's problem while nobody has connected it (its state is `needs-connect`); undefined for other servers. */
export function needsConnect(config: GatewayConfig, server: ServerConfig): string | undefined {
  if (perUserOf(server) === undefined) return undefined;
  // With no public URL (stdio) there is no page to open before a call hands out a link: the CLI is the way.
  const cli = `switchboard users connect ${server.name}`;
  if (credentialSettings(config).publicUrl === undefined) return `no user has connected it yet: run ${cli}`;
  return `no user has connected it yet: connect at ${connectUrl(config, server.name)} (or run ${cli})`;
}

/** While a per-user server waits for its first user, the store is looked at this often for a connect made elsewhere. */
export const LISTING_WATCH_MS = 5000;

/** What the catalog needs of a listing connection that is gone. */
export interface KeptLists {
  readonly lists: Connection['lists'];
  readonly instructions?: string;
  readonly serverInfo?: Connection['serverInfo'];
}

const pair = (user: string, server: string) => `${user}\u0000${server}`;

export class PerUserServers {
  private opened?: Promise<CredentialStore>;
  private watching?: NodeJS.Timeout;
  /** Whose credential each per-user server's listing connection holds. */
  private readonly listedBy = new Map<string, string>();
  /** (user, server) pairs whose credential the server refused for listing: not tried again until that user connects anew. */
  private readonly refusedListing = new Set<string>();
  /** The credential each user's connection was opened with (its obtainedAt: a new connect changes it, a refresh does not). */
  private readonly openedWith = new WeakMap<Connection, number>();
  /**
   * Bumped whenever the store says a record changed (here, on another replica, by the CLI): a
   * connection checked since the last change is current without reading the store again, so a
   * call on a held connection costs a Map lookup, not a file stat and a decryption.
   */
  private generation = 0;
  private readonly checkedAt = new WeakMap<Connection, number>();
  /**
   * The lists of a listing connection whose credential went away (revoked, refused) with nobody
   * else's to list with: the catalog keeps showing them, so a call still reaches the router and
   * asks its user to connect (otherwise the last user's revoke would leave no tool to call, and on
   * stdio no link to connect by). Held in memory only; forgotten once a user's credential lists
   * the server again.
   */
  private readonly keptLists = new Map<string, KeptLists>();
  private stopWatchingStore: (() => void) | undefined;
  private rechecking: Promise<void> | undefined;
  private recheckAgain = false;

  constructor(
    private readonly host: PerUserHost,
    private readonly given: { credentials?: CredentialStore; connectAsker?: ConnectAsker } = {},
  ) {
    this.connectAsker = given.connectAsker;
  }

  /** The connect pages (src/connect/ hands itself over with App.useConnectAsker). */
  connectAsker: ConnectAsker | undefined;

  /** The configured credential store, opened once, on first use. */
  credentials(): Promise<CredentialStore> {
    if (this.opened !== undefined) return this.opened;
    const c = this.host.config().credentials;
    this.opened = (
      this.given.credentials !== undefined ? Promise.resolve(this.given.credentials) : openCredentialStore({ store: this.host.stateStore(), file: c.file, keyFile: c.keyFile, createKey: true })
    ).then((store) => {
      this.stopWatchingStore = store.watch(() => {
        this.generation++;
        // A connect or revoke elsewhere moves the listing now, not at the next look.
        if (this.watching !== undefined) void this.recheck();
      });
      return store;
    });
    return this.opened;
  }

  /** `user`'s own connection to `server`, with their credential. */
  async open(server: ServerConfig, user: string): Promise<Connection> {
    const store = await this.credentials();
    const obtainedAt = (await store.get(user, server.name))?.obtainedAt;
    const connection = await openPerUserConnection(this.deps(user), server, user);
    if (obtainedAt !== undefined) this.openedWith.set(connection, obtainedAt);
    // The first user to connect a server nobody had connected gives it its listing connection.
    if (this.host.router().connection(server.name)?.state === 'needs-connect') {
      void this.list([server.name], user).catch((err) => this.host.logger.warn({ server: server.name, err: String(err) }, 'listing a per-user server failed'));
    }
    return connection;
  }

  /** Whether `connection` still holds `user`'s credential: false once revoked, or replaced by a new connect. */
  async current(connection: Connection, user: string, server: string): Promise<boolean> {
    if (this.checkedAt.get(connection) === this.generation) return true;
    const seen = this.generation;
    const record = await (await this.credentials()).get(user, server);
    const current = record !== undefined && record.obtainedAt === this.openedWith.get(connection);
    if (current) this.checkedAt.set(connection, seen);
    return current;
  }

  /** The server refused `user`'s credential during a call: it is dropped, so the router asks them to connect again. */
  async refused(user: string, server: string): Promise<void> {
    await dropRefused(this.host.audit, await this.credentials(), user, server);
  }

  /**
   * Gives per-user servers still in `needs-connect` a listing connection: with `user`'s credential
   * (who just connected), else the first user in the store whose credential opens.
   */
  async list(names: readonly string[], user?: string): Promise<void> {
    const router = this.host.router();
    const waiting = names.filter((n) => router.connection(n)?.state === 'needs-connect');
    if (waiting.length === 0) return;
    const store = await this.credentials();
    const entries = await store.list();
    await Promise.all(
      waiting.map(async (name) => {
        const server = this.host.config().servers.find((s) => s.name === name);
        if (server === undefined) return;
        if (user !== undefined) this.refusedListing.delete(pair(user, name));
        const others = entries.filter((e) => e.server === name && !this.refusedListing.has(pair(e.user, name))).map((e) => e.user);
        const users = new Set([...(user === undefined ? [] : [user]), ...others]);
        for (const candidate of users) {
          const listing = await userEntry(this.deps(candidate), store, server, candidate).catch(() => undefined);
          if (listing === undefined) continue;
          const old = router.connection(name);
          if (old?.state !== 'needs-connect') return; // another connect got there first
          const connection = this.host.shared(server, listing);
          this.replace(name, connection);
          this.listedBy.set(name, candidate);
          this.keptLists.delete(name);
          await old.close();
          await connection.connect();
          this.host.logger.info({ server: name, state: connection.state }, "per-user server listed with one user's credential");
          this.host.invalidate();
          return;
        }
      }),
    );
  }

  /**
   * Moves a listing connection whose user was revoked, or whose credential the server refused, to
   * another user's (or back to `needs-connect` when nobody else has one), and lists servers still
   * waiting. The watch runs it every LISTING_WATCH_MS.
   */
  recheck(): Promise<void> {
    // One at a time: a change seen during one runs one more after it, and every caller waits for both.
    if (this.rechecking !== undefined) {
      this.recheckAgain = true;
      return this.rechecking;
    }
    this.rechecking = (async () => {
      try {
        do {
          this.recheckAgain = false;
          await this.recheckOnce().catch((err) => this.host.logger.warn({ err: String(err) }, 'listing per-user servers failed'));
        } while (this.recheckAgain);
      } finally {
        this.rechecking = undefined;
      }
    })();
    return this.rechecking;
  }

  private async recheckOnce(): Promise<void> {
    const router = this.host.router();
    const entries = await (await this.credentials()).list();
    const has = new Set(entries.map((e) => pair(e.user, e.server)));
    const again: string[] = [];
    for (const server of this.host.config().servers) {
      const c = perUserOf(server) === undefined ? undefined : router.connection(server.name);
      if (c === undefined) continue;
      if (c.state === 'needs-connect') {
        again.push(server.name);
        continue;
      }
      const by = this.listedBy.get(server.name);
      if (by === undefined) continue;
      const revoked = !has.has(pair(by, server.name));
      const refused = c.state !== 'ready' && refusesCredential(c.lastError);
      if (!revoked && !refused) continue;
      if (refused) this.refusedListing.add(pair(by, server.name));
      this.listedBy.delete(server.name);
      if (c.listed)
        this.keptLists.set(server.name, {
          lists: c.lists,
          ...(c.instructions !== undefined ? { instructions: c.instructions } : {}),
          ...(c.serverInfo !== undefined ? { serverInfo: c.serverInfo } : {}),
        });
      this.replace(server.name, this.host.shared(server));
      await c.close();
      this.host.logger.info({ server: server.name, why: revoked ? 'revoked' : 'refused' }, "per-user server's listing credential is gone; listing with another user's");
      this.host.invalidate();
      again.push(server.name);
    }
    if (again.length > 0) await this.list(again);
  }

  /** The lists `server` had before its listing credential went away, while it waits in `needs-connect` (see keptLists). */
  kept(server: string): KeptLists | undefined {
    return this.keptLists.get(server);
  }

  private replace(name: string, connection: Connection): void {
    const router = this.host.router();
    router.setConnections(new Map(router.connections().map((c) => [c.name, c.name === name ? connection : c])));
  }

  /** Lists the per-user servers among `servers` (at start, or the ones a reload added) and keeps watching; never throws. */
  async startListing(servers: readonly ServerConfig[]): Promise<void> {
    const names = servers.filter((s) => perUserOf(s) !== undefined).map((s) => s.name);
    if (names.length === 0) return;
    await this.list(names).catch((err) => this.host.logger.warn({ err: String(err) }, 'per-user servers not listed'));
    this.watch();
  }

  /**
   * A connect was stored (the connect pages call this): a server nobody had connected gets its
   * listing connection now. Connects this process does not hear of (another replica's, the CLI's)
   * are found by watch().
   */
  noteConnect(user: string, server: string): Promise<void> {
    return this.list([server], user);
  }

  /**
   * Rechecks when the store says a credential changed (a connect or revoke on another replica or
   * by the CLI), and every LISTING_WATCH_MS besides: a listing connection the server started to
   * refuse is no change of the store.
   */
  watch(): void {
    if (this.watching !== undefined) return;
    this.watching = setInterval(() => {
      void this.recheck();
    }, LISTING_WATCH_MS);
    this.watching.unref();
  }

  /** Shutdown: the watch stops, and a store this opened closes. */
  async close(): Promise<void> {
    clearInterval(this.watching);
    this.watching = undefined;
    this.stopWatchingStore?.();
    this.stopWatchingStore = undefined;
    const opened = this.opened;
    this.opened = undefined;
    // A store the app was given (tests) is its giver's to close.
    if (this.given.credentials === undefined) await opened?.then((store) => store.close()).catch(() => undefined);
  }

  private deps(user: string): PerUserOpenDeps {
    return {
      credentials: () => this.credentials(),
      clients: (target) => tokenStoreFor(target),
      audit: this.host.audit,
      connect: async (entry, auth) => {
        const connection = this.host.own(entry, user, auth);
        await connection.connect();
        if (connection.state !== 'ready') {
          const why = connection.lastError ?? connection.unavailable();
          await connection.close();
          throw why;
        }
        return connection;
      },
    };
  }
}
