// The middle of the gateway: exposed name → server → connection, and everything the gateway
// keeps per session on servers' behalf (subscriptions, task ids, server requests in flight, log
// levels, per-session connections), released in one place when the session ends. Handlers get the
// router and their session; servers' own notifications and requests come through here to the
// sessions they belong to. Owns no config and builds no connection: the app hands it both.

import type { Catalog } from '../catalog/build.js';
import { createCursorCodec, type CursorCodec } from '../catalog/cursor.js';
import { mergeInstructions } from '../catalog/instructions.js';
import { uriJudge } from '../catalog/relayed-uris.js';
import type { CatalogStore } from '../catalog/store.js';
import type { CatalogView } from '../catalog/view.js';
import type { GatewayConfig, ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../observability/audit.js';
import { Observer } from '../observability/observer.js';
import type { ServerConnectionEvents } from '../outbound/server-connection.js';
import { mostVerbose } from '../protocol/mcp.js';
import { IsolatedConnections } from './isolated.js';
import { routeServerNotification, type NotificationRoutes } from './notification-routes.js';
import { ServerRequestRelay } from './server-request-relay.js';
import { ParkedCalls } from './parked-calls.js';
import { StateWrapper, stateKey } from './request-state.js';
import type { Connection, RequestOwner, Session } from './session.js';
import { Subscriptions } from './subscriptions.js';
import { TaskIds } from './task-ids.js';

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
}

export class Router {
  readonly cursors: CursorCodec;
  /** Wraps 2026 servers' requestState on its way to 2026 clients (same key as cursors and parked calls). */
  readonly states: StateWrapper;
  readonly subscriptions: Subscriptions;
  readonly tasks = new TaskIds();
  /** Calls of stateless-revision clients waiting for their input between rounds. */
  readonly parked: ParkedCalls;
  readonly store: CatalogStore;
  readonly audit: AuditLog;
  readonly logger: Logger;
  readonly observer: Observer;
  private readonly relay: ServerRequestRelay;
  private readonly isolated: IsolatedConnections;
  private readonly routes: NotificationRoutes;
  private readonly sessions = new Set<Session>();
  /** Shared connections by server name, in config order. */
  private servers = new Map<string, Connection>();
  /** The level each server was last told, to avoid telling it again. */
  private readonly serverLevels = new Map<Connection, string>();
  private closing = false;

  constructor(private readonly deps: RouterDeps) {
    // One key for everything a client hands back: processes sharing listen.stateKey accept each other's.
    const key = stateKey(deps.config().listen.stateKey);
    this.cursors = createCursorCodec(key);
    this.states = new StateWrapper(key);
    this.parked = new ParkedCalls(key);
    this.store = deps.store;
    this.audit = deps.audit;
    this.logger = deps.logger;
    this.observer = deps.observer ?? new Observer(() => deps.store.current);
    this.subscriptions = new Subscriptions({
      limits: () => deps.config().limits,
      // Updates follow the policy in force, not the one of the day the URI was subscribed to.
      mayHear: (session, connection, uri, exposedUri) => session.view.allowsUri(exposedUri) && (this.catalog.resourcePolicy.get(connection.name)?.(uri) ?? false),
    });
    this.relay = new ServerRequestRelay(
      deps.logger,
      () => this.sessions.size,
      (session, server) => uriJudge(this.catalog, session.view, server),
      (session) => session?.profile?.roots ?? deps.config().roots,
    );
    this.isolated = new IsolatedConnections(deps.openIsolated, () => deps.config().limits.maxIsolatedConnections);
    this.routes = { sessions: this.sessions, subscriptions: this.subscriptions, tasks: this.tasks, relay: this.relay, logger: deps.logger };
  }

  get config(): GatewayConfig {
    return this.deps.config();
  }

  get catalog(): Catalog {
    return this.store.current;
  }

  get pageSize(): number {
    return this.config.catalog.pageSize;
  }

  // --- connections -------------------------------------------------------------------------

  /** The shared connections from now on (config order is catalog order). */
  setConnections(servers: Map<string, Connection>): void {
    this.servers = servers;
  }

  connection(name: string): Connection | undefined {
    return this.servers.get(name);
  }

  connections(): readonly Connection[] {
    return [...this.servers.values()];
  }

  /** The connection that serves `session` for `server`: the shared one, or its own under per-session isolation. */
  connectionFor(server: string, session: Session): Connection | Promise<Connection> {
    const shared = this.servers.get(server);
    if (!shared) throw new GatewayError('SERVER_UNAVAILABLE', `server "${server}" is not configured`, { server });
    if (shared.config.isolation === 'shared') return shared;
    return this.isolated.get(shared.config, session);
  }

  /** A server left the config or is being replaced: its subscriptions and per-session connections go with it. */
  async retire(connection: Connection): Promise<void> {
    this.subscriptions.dropConnection(connection);
    this.serverLevels.delete(connection);
    await Promise.all([connection.close(), this.isolated.closeServer(connection.name)]);
  }

  /** A reload restarted a server: sessions' subscriptions follow it to its new connection. */
  transfer(from: Connection, to: Connection): void {
    this.subscriptions.transfer(from, to);
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
      onNotification: (c, n, owner) => routeServerNotification(this.routes, c, n, owner),
      onRequest: (c, request, context) => this.relay.relay(c, request, context.owner, context.signal),
    };
  }

  /**
   * Asks the client that owns a request something on its server's behalf, as if the server had
   * sent the request itself (a 2026-07-28 server's input requests, for a client of the stateful era).
   */
  askClient(connection: Connection, method: string, params: Record<string, any> | undefined, owner: RequestOwner, signal: AbortSignal): Promise<Record<string, any>> {
    return this.relay.relay(connection, { jsonrpc: '2.0', id: 0, method, params }, owner, signal);
  }

  /** A server came back (or a restarted one is up): restore what it held for our sessions. */
  async restore(connection: Connection): Promise<void> {
    await this.subscriptions.resubscribe(connection);
    this.serverLevels.delete(connection);
    await this.logLevelChanged();
  }

  // --- sessions ----------------------------------------------------------------------------

  attach(session: Session): void {
    this.sessions.add(session);
  }

  /** The one release: everything the gateway held on servers for this session. */
  release(session: Session): void {
    this.sessions.delete(session);
    // At shutdown every connection is about to close: telling servers to unsubscribe is moot.
    if (!this.closing) this.subscriptions.dropSession(session);
    this.tasks.dropSession(session);
    this.relay.dropSession(session);
    this.parked.dropSession(session);
    for (const c of this.isolated.of(session)) this.subscriptions.dropConnection(c);
    void this.isolated.closeSession(session);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  allSessions(): Iterable<Session> {
    return this.sessions;
  }

  /** A session set its log level: servers are told the most verbose level any session wants. */
  async logLevelChanged(): Promise<void> {
    const wanted = mostVerbose([...this.sessions].map((s) => s.logLevel));
    if (!wanted) return;
    const targets = [...this.servers.values(), ...this.isolated.all()].filter((c) => c.state === 'ready' && c.capabilities.logging);
    await Promise.all(
      targets.map(async (c) => {
        if (this.serverLevels.get(c) === wanted) return;
        this.serverLevels.set(c, wanted);
        await c.request('logging/setLevel', { level: wanted }).catch(() => undefined);
      }),
    );
  }

  rootsChanged(session: Session): void {
    // Shared connections declare roots without listChanged (they cannot speak for every client):
    // only a session's own connections hear that its roots changed.
    for (const c of this.isolated.of(session)) c.notify('notifications/roots/list_changed');
  }

  /** Merged instructions of the ready servers `view` sees (a profile hears nothing of servers it cannot use). */
  instructions(view: CatalogView): string | undefined {
    const visible = [...this.catalog.instructions].filter(([name]) => view.seesServer(name));
    return mergeInstructions(visible, this.config.naming);
  }

  /** Shutdown: per-session connections close; servers are not told about unsubscribing. */
  async close(): Promise<void> {
    this.closing = true;
    this.parked.clear();
    await this.isolated.closeAll();
  }
}
