// The middle of the gateway, put together from its two halves: the connection registry
// (connections.ts: exposed server name → connection, shared or per-session) and the per-session
// state kept on servers' behalf (session-state.ts: subscriptions, task ids, server requests in
// flight, parked calls, log levels), released in one place when a session ends. The Router wires
// servers' events to the sessions they belong to, and is the read-only face handlers see of the
// rest (the catalog in force, the config, audit, cursors). Owns no config and builds no
// connection: the app hands it both.

import type { Catalog } from '../catalog/build.js';
import { createCursorCodec, type CursorCodec } from '../catalog/cursor.js';
import { mergeInstructions } from '../catalog/instructions.js';
import { uriJudge } from '../catalog/relayed-uris.js';
import type { CatalogStore } from '../catalog/store.js';
import type { CatalogView } from '../catalog/view.js';
import type { GatewayConfig, ServerConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../observability/audit.js';
import { Observer } from '../observability/observer.js';
import type { ServerConnectionEvents } from '../outbound/server-connection.js';
import { ConnectionRegistry } from './connections.js';
import { type ConnectAsker, ConnectAsks } from './connect-ask.js';
import { credentialSettings } from './per-user-config.js';
import { routeServerNotification } from './notification-routes.js';
import { keyIdOf, stateKey } from './request-state.js';
import type { Connection, RequestOwner, Session } from './session.js';
import { SessionState } from './session-state.js';

export interface RouterDeps {
  store: CatalogStore;
  audit: AuditLog;
  logger: Logger;
  /** The config in force (a reload replaces it). */
  config: () => GatewayConfig;
  /** Opens `session`'s own connection to a per-session server (the app builds connections). */
  openIsolated: (server: ServerConfig, session: Session) => Promise<Connection>;
  /** Metrics and traces of requests (default: one that observes nothing). */
  observer?: Observer;
  /** Opens `user`'s own connection to a per-user server (the app); rejects CONNECT_REQUIRED without a credential. */
  openPerUser?: (server: ServerConfig, user: string) => Promise<Connection>;
  /** Whether a user's connection still holds their current credential (see PerUserDeps.current). */
  perUserCurrent?: (connection: Connection, user: string, server: string) => Promise<boolean>;
  /** The server refused a user's credential during a call (see PerUserDeps.refused). */
  perUserRefused?: (user: string, server: string) => Promise<void>;
  /** The connect pages (src/connect/, given by the app), once there are any. */
  connectAsker?: () => ConnectAsker | undefined;
}

/** What a request handler reads of the gateway besides connections and session state: all read-only. */
export interface Gateway {
  /** The catalog snapshot in force now (read when needed: a reload may replace it mid-request). */
  readonly catalog: Catalog;
  /** The config in force now. */
  readonly config: GatewayConfig;
  readonly cursors: CursorCodec;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly observer: Observer;
  /** Merged instructions of the ready servers `view` sees. */
  instructions(view: CatalogView): string | undefined;
}

export class Router implements Gateway {
  /** The connection registry: server name → connection. */
  readonly registry: ConnectionRegistry;
  /** Everything kept per session on servers' behalf. */
  readonly state: SessionState;
  cursors: CursorCodec;
  /** Id of the key cursors and state tokens are signed with (in session records: which key a session's tokens need). */
  keyId: string;
  readonly store: CatalogStore;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly observer: Observer;
  private closing = false;

  constructor(private readonly deps: RouterDeps) {
    // One key for everything a client hands back: processes sharing listen.stateKey accept each other's.
    const key = stateKey(deps.config().listen.stateKey);
    this.cursors = createCursorCodec(key);
    this.keyId = keyIdOf(key);
    this.store = deps.store;
    this.audit = deps.audit;
    this.logger = deps.logger;
    this.observer = deps.observer ?? new Observer(() => deps.store.current);
    const openPerUser = deps.openPerUser;
    this.registry = new ConnectionRegistry(
      deps.openIsolated,
      () => deps.config().limits.maxIsolatedConnections,
      openPerUser && {
        open: openPerUser,
        bounds: () => credentialSettings(deps.config()).connections,
        asks: new ConnectAsks(deps.connectAsker ?? (() => undefined)),
        entry: (name) => deps.config().servers.find((s) => s.name === name),
        current: deps.perUserCurrent ?? (async () => true),
        refused: deps.perUserRefused ?? (async () => {}),
      },
    );
    this.registry.perUserClosed = (c) => this.state.subscriptions.dropConnection(c);
    this.state = new SessionState({
      key,
      logger: deps.logger,
      config: deps.config,
      // Updates follow the policy in force, not the one of the day the URI was subscribed to.
      mayHear: (session, connection, uri, exposedUri) => session.view.allowsUri(exposedUri) && (this.catalog.resourcePolicy.get(connection.name)?.(uri) ?? false),
      uriJudge: (session, server) => uriJudge(this.catalog, session.view, server),
      tellLevel: (level) => this.registry.tellLevel(level),
    });
  }

  /**
   * Signs with `key` from now on: the state store's shared key, taken at start before any session
   * exists, so a cursor or requestState token one replica issued is good at every other.
   */
  useKey(key: Buffer, keyId = keyIdOf(key)): void {
    this.cursors = createCursorCodec(key);
    this.state.useKey(key);
    this.keyId = keyId;
  }

  get config(): GatewayConfig {
    return this.deps.config();
  }

  get catalog(): Catalog {
    return this.store.current;
  }

  /** Merged instructions of the ready servers `view` sees (a profile hears nothing of servers it cannot use). */
  instructions(view: CatalogView): string | undefined {
    const visible = [...this.catalog.instructions].filter(([name]) => view.seesServer(name));
    return mergeInstructions(visible, this.config.naming);
  }

  // --- connections (the app's view of the registry) -------------------------------------------

  /** The shared connections from now on (config order is catalog order). */
  setConnections(servers: Map<string, Connection>): void {
    this.registry.set(servers);
  }

  connection(name: string): Connection | undefined {
    return this.registry.get(name);
  }

  connections(): readonly Connection[] {
    return this.registry.all();
  }

  /** A server left the config or is being replaced: its subscriptions and per-session connections go with it. */
  async retire(connection: Connection): Promise<void> {
    this.state.subscriptions.dropConnection(connection);
    this.registry.forgetLevel(connection);
    await Promise.all([connection.close(), this.registry.closeServer(connection.name)]);
  }

  /** A reload restarted a server: sessions' subscriptions follow it to its new connection. */
  transfer(from: Connection, to: Connection): void {
    this.state.subscriptions.transfer(from, to);
  }

  /** What every shared connection reports to the router. */
  connectionEvents(): ServerConnectionEvents<RequestOwner> {
    return {
      onChange: () => this.store.invalidate(),
      onDown: (c, reason) => this.observer.serverFailed(c.name, reason),
      onReconnect: (c) => {
        this.observer.reconnected(c.name);
        void this.restore(c).catch((err) => this.logger.warn({ server: c.name, err: String(err) }, 'restoring server state failed'));
      },
      onNotification: (c, n, owner) => routeServerNotification(this.state.routes, c, n, owner),
      onRequest: (c, request, context) => this.state.relay.relay(c, request, context.owner, context.signal),
    };
  }

  /** A server came back (or a restarted one is up): restore what it held for our sessions. */
  async restore(connection: Connection): Promise<void> {
    await this.state.subscriptions.resubscribe(connection);
    this.registry.forgetLevel(connection);
    await this.state.logLevelChanged();
  }

  // --- sessions ----------------------------------------------------------------------------

  attach(session: Session): void {
    this.state.attach(session);
  }

  /** The one release: everything the gateway held on servers for this session. */
  release(session: Session): void {
    // At shutdown every connection is about to close: telling servers to unsubscribe is moot.
    this.state.release(session, !this.closing);
    for (const c of this.registry.ofSession(session)) this.state.subscriptions.dropConnection(c);
    void this.registry.closeSession(session);
  }

  get sessionCount(): number {
    return this.state.count;
  }

  allSessions(): Iterable<Session> {
    return this.state.all();
  }

  /** A session set its log level: servers are told the most verbose level any session wants. */
  logLevelChanged(): Promise<void> {
    return this.state.logLevelChanged();
  }

  /** A session's roots changed: its own connections hear it. */
  rootsChanged(session: Session): void {
    this.registry.rootsChanged(session);
  }

  /** Shutdown: per-session connections close; servers are not told about unsubscribing. */
  async close(): Promise<void> {
    this.closing = true;
    this.state.close();
    await this.registry.closeAll();
  }
}
