// Wiring only: config → one ServerConnection per server → catalog store → inbound sessions, and
// the routing of what servers send on their own (notifications, requests) to the sessions they
// belong to. Starts every server in parallel (none waits for another) and keeps serving whatever
// state each one ends up in.

import { createCursorCodec, type CursorCodec } from './catalog/cursor.js';
import type { GuardOptions } from './catalog/guard.js';
import { GuardReporter } from './observability/guard-report.js';
import { readLock, type LockFile } from './catalog/pinning.js';
import { createAuditLog, type AuditLog } from './observability/audit.js';
import type { Catalog, CatalogServerInput } from './catalog/build.js';
import { CatalogStore } from './catalog/store.js';
import type { CatalogView } from './catalog/view.js';
import type { GatewayConfig, ServerConfig } from './config/types.js';
import type { IncomingContext } from './jsonrpc/peer.js';
import type { JsonRpcMessage, JsonRpcRequest } from './jsonrpc/types.js';
import type { Logger } from './log.js';
import type { GatewayCore, RequestContext, SessionHandle } from './inbound/context.js';
import type { InboundSessionHost } from './inbound/host.js';
import { IsolatedConnections } from './inbound/isolated.js';
import { ServerRequests } from './inbound/server-requests.js';
import { ClientSession } from './inbound/session.js';
import { ByteBudget } from './inbound/budget.js';
import { Subscriptions } from './inbound/subscriptions.js';
import { TaskIds } from './inbound/task-ids.js';
import { ServerConnection, type ServerConnectionEvents } from './outbound/server-connection.js';
import { mostVerbose } from './mcp/log-levels.js';
import { mergeInstructions } from './mcp/instructions.js';
import { routeServerNotification, type NotificationRoutes } from './inbound/server-notifications.js';
import { summarize, type ServerSummary } from './outbound/summary.js';

export type { ServerSummary };

export interface GatewayOptions {
  /** Reconnect servers that fail or drop (default true; `check` makes one attempt). */
  reconnect?: boolean;
}

/**
 * What a shared connection declares: what the gateway can route. Sampling, elicitation and roots
 * requests a server sends during a call go to the client that made the call (and fail with an
 * error for a client that did not declare them, or when no call can be told). Servers register
 * capability-gated tools from this, so the catalog connection of a per-session server declares the
 * same: its tools are what each session's own connection will offer.
 */
const SHARED_CLIENT_CAPABILITIES = { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } };

export class Gateway implements GatewayCore, InboundSessionHost {
  readonly cursors: CursorCodec = createCursorCodec();
  readonly store: CatalogStore;
  readonly subscriptions = new Subscriptions();
  readonly tasks = new TaskIds();
  readonly audit: AuditLog;
  /** Bytes all sessions together may hold in flight (limits.totalBytesInFlight). */
  readonly budget: ByteBudget;
  /** The lock file's pins, read at start and on every reload (undefined: no lock file). */
  private lock?: LockFile;
  private readonly servers = new Map<string, ServerConnection>();
  private readonly sessions = new Set<ClientSession>();
  private readonly isolated: IsolatedConnections;
  private readonly serverRequests: ServerRequests;
  /** The level each server was last told, to avoid telling it again. */
  private readonly serverLevels = new Map<ServerConnection, string>();
  private closing = false;
  private readonly routes: NotificationRoutes;
  private drained?: () => void;

  constructor(
    private current: GatewayConfig,
    readonly logger: Logger,
    private readonly options: GatewayOptions = {},
  ) {
    const config = current;
    this.budget = new ByteBudget(config.limits.totalBytesInFlight, 'the gateway', 'limits.totalBytesInFlight', 'gateway');
    this.serverRequests = new ServerRequests(logger);
    this.routes = { sessions: this.sessions, subscriptions: this.subscriptions, tasks: this.tasks, serverRequests: this.serverRequests, logger };
    for (const server of config.servers) this.servers.set(server.name, this.sharedConnection(server));
    this.isolated = new IsolatedConnections((server, session) => this.openIsolated(server, session), () => this.current.limits.maxIsolatedConnections);
    this.audit = createAuditLog({ file: config.sanitize.auditLog, logger });
    this.store = new CatalogStore(() => this.catalogInput(), config.naming, this.guardOptions());
    const reporter = new GuardReporter(this.audit, logger);
    this.store.snapshots.subscribe((catalog) => reporter.report(catalog.report));
    this.store.changed.subscribe((kinds) => {
      for (const session of this.sessions) session.notifyListChanged(kinds);
    });
  }

  get config(): GatewayConfig {
    return this.current;
  }

  get catalog(): Catalog {
    return this.store.current;
  }

  get pageSize(): number {
    return this.config.catalog.pageSize;
  }

  /** Reads the lock file; a malformed one is reported and pins nothing (a missing one is normal). */
  async loadLock(): Promise<void> {
    try {
      this.lock = await readLock(this.current.pinning.lockFile);
    } catch (err) {
      this.lock = undefined;
      this.logger.error({ err: String(err) }, 'lock file unreadable: no tool is pinned');
    }
    this.store.setGuard(this.guardOptions());
  }

  private guardOptions(): GuardOptions {
    const { sanitize, pinning } = this.current;
    return { sanitize: { maxDescriptionLength: sanitize.maxDescriptionLength, action: sanitize.action }, lock: this.lock, newTools: pinning.newTools };
  }

  /**
   * Connects every enabled server in parallel. Resolves once each is ready or failed, or after
   * `waitMs` if given: a server still starting then joins the catalog when it is ready, and
   * sessions hear list_changed (one hung server must not hold back everyone else).
   */
  async start(waitMs?: number): Promise<void> {
    await this.loadLock();
    const all = Promise.all([...this.servers.values()].map((c) => c.connect()));
    if (waitMs === undefined) await all;
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    this.store.rebuild();
  }

  /**
   * Applies a new config without a restart: added servers start, removed ones stop, changed ones
   * restart, unchanged ones are not touched (their in-flight calls finish). Sessions hear
   * list_changed for whatever that changes. Resolves when the new servers are up or failed.
   */
  async reload(next: GatewayConfig): Promise<{ added: string[]; removed: string[]; restarted: string[] }> {
    const before = this.current;
    const old = new Map(before.servers.map((s) => [s.name, s]));
    const added: string[] = [];
    const restarted: string[] = [];
    const removed = before.servers.filter((s) => !next.servers.some((n) => n.name === s.name)).map((s) => s.name);
    this.current = next;
    for (const session of this.sessions) {
      const renewed = session.profile && next.clients.find((c) => c.name === session.profile!.name);
      if (renewed) session.updateProfile(renewed);
    }
    const starting: Promise<void>[] = [];
    const stopping: Promise<void>[] = [];
    for (const name of removed) stopping.push(this.retire(name));
    const servers = new Map<string, ServerConnection>();
    for (const server of next.servers) {
      const was = old.get(server.name);
      if (was && JSON.stringify(was) === JSON.stringify(server)) {
        servers.set(server.name, this.servers.get(server.name)!);
        continue;
      }
      const connection = this.sharedConnection(server);
      if (was) {
        restarted.push(server.name);
        // Sessions' subscriptions follow the server to its new connection.
        this.subscriptions.transfer(this.servers.get(server.name)!, connection);
        stopping.push(this.retire(server.name));
      } else added.push(server.name);
      servers.set(server.name, connection);
      starting.push(connection.connect().then(() => this.subscriptions.resubscribe(connection)));
    }
    // Config order is catalog order: rebuild the map in the new order.
    this.servers.clear();
    for (const [name, c] of servers) this.servers.set(name, c);
    if (JSON.stringify(before.naming) !== JSON.stringify(next.naming)) this.store.setNaming(next.naming);
    // Sanitizer settings, pinning policy or the lock file itself may have changed.
    await this.loadLock();
    this.store.invalidate();
    await Promise.all([...starting, ...stopping]);
    this.store.invalidate();
    return { added, removed, restarted };
  }

  /** Stops a server that left the config (or is being replaced), with its per-session connections. */
  private async retire(name: string): Promise<void> {
    const connection = this.servers.get(name);
    this.subscriptions.dropConnection(connection!);
    await Promise.all([connection?.close(), this.isolated.closeServer(name)]);
  }

  connection(name: string): ServerConnection | undefined {
    return this.servers.get(name);
  }

  connectionFor(server: string, session: SessionHandle): ServerConnection | Promise<ServerConnection> {
    const shared = this.servers.get(server);
    if (!shared) throw new Error(`unknown server ${server}`);
    if (shared.config.isolation === 'shared') return shared;
    return this.isolated.get(shared.config, session);
  }

  connections(): readonly ServerConnection[] {
    return [...this.servers.values()];
  }

  openSession(push: (message: JsonRpcMessage) => void, principal?: string): ClientSession {
    const profile = principal === undefined ? undefined : this.current.clients.find((c) => c.name === principal);
    const budget = new ByteBudget(this.current.limits.sessionBytesInFlight, 'this session', 'limits.sessionBytesInFlight', 'session', this.budget);
    const session = new ClientSession(this, push, budget, (s) => this.sessions.delete(s), profile);
    this.sessions.add(session);
    return session;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Merged instructions of the ready servers `view` sees (a profile hears nothing of servers it cannot use). */
  instructions(view: CatalogView): string | undefined {
    const visible = [...this.catalog.instructions].filter(([name]) => view.seesServer(name));
    return mergeInstructions(visible, this.config.naming);
  }

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

  requestSettled(): void {
    if (this.drained && this.busy() === 0) this.drained();
  }

  /** Requests in progress across every session. */
  private busy(): number {
    let n = 0;
    for (const s of this.sessions) n += s.inFlightCount;
    return n;
  }

  /** Waits until no request is in progress, or `ms` passed; true if everything finished. */
  drain(ms: number): Promise<boolean> {
    if (this.busy() === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.drained = undefined;
        resolve(false);
      }, ms);
      this.drained = () => {
        clearTimeout(timer);
        this.drained = undefined;
        resolve(true);
      };
    });
  }

  rootsChanged(session: SessionHandle): void {
    // Shared connections declare roots without listChanged (they cannot speak for every client):
    // only a session's own connections hear that its roots changed.
    for (const c of this.isolated.of(session)) c.notify('notifications/roots/list_changed');
  }

  sessionClosed(session: SessionHandle): void {
    // At shutdown every connection is about to close: telling servers to unsubscribe is moot.
    if (!this.closing) this.subscriptions.dropSession(session);
    this.tasks.dropSession(session);
    this.serverRequests.dropSession(session);
    for (const c of this.isolated.of(session)) this.subscriptions.dropConnection(c);
    void this.isolated.closeSession(session);
  }

  summary(): ServerSummary[] {
    return summarize(this.servers.values());
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const session of [...this.sessions]) session.close();
    await this.isolated.closeAll();
    await Promise.all([...this.servers.values()].map((c) => c.close()));
    this.store.close();
    await this.audit.close();
  }

  private catalogInput(): CatalogServerInput[] {
    return [...this.servers.values()].map((c) => ({ config: c.config, ready: c.listed, lists: c.lists, instructions: c.instructions }));
  }

  private sharedConnection(server: ServerConfig): ServerConnection {
    return new ServerConnection(server, this.logger.child({ server: server.name }), this.connectionEvents(), {
      ...this.connectionLimits(),
      clientCapabilities: SHARED_CLIENT_CAPABILITIES,
      reconnect: this.options.reconnect,
    });
  }

  private connectionLimits() {
    const l = this.config.limits;
    return { maxMessageBytes: l.maxMessageBytes, maxDepth: l.maxDepth, writeBufferBytes: l.writeBufferBytes, maxCallsInFlight: l.maxCallsPerServer };
  }

  /** A server came back: restore what it held for our sessions (subscriptions, log level). */
  private async restore(connection: ServerConnection): Promise<void> {
    await this.subscriptions.resubscribe(connection);
    this.serverLevels.delete(connection);
    await this.logLevelChanged();
  }

  private connectionEvents(): ServerConnectionEvents {
    return {
      onReconnect: (c) => void this.restore(c).catch((err) => this.logger.warn({ server: c.name, err: String(err) }, 'restoring server state failed')),
      onChange: () => this.store.invalidate(),
      onNotification: (c, n, owner) => routeServerNotification(this.routes, c, n, owner as RequestContext | SessionHandle | undefined),
      onRequest: (c, request, context) => this.serverRequest(c, request, context),
    };
  }

  private async openIsolated(server: ServerConfig, session: SessionHandle): Promise<ServerConnection> {
    const caps = session.clientCapabilities;
    const declared: Record<string, any> = {};
    for (const key of ['roots', 'sampling', 'elicitation'] as const) if (caps[key]) declared[key] = caps[key];
    const connection = new ServerConnection(server, this.logger.child({ server: server.name, session: session.id }), this.connectionEvents(), {
      ...this.connectionLimits(),
      clientCapabilities: declared,
      fetchLists: false,
      owner: session,
      reconnect: this.options.reconnect,
    });
    await connection.connect();
    if (connection.state !== 'ready') throw connection.unavailable();
    if (session.logLevel && connection.capabilities.logging) await connection.request('logging/setLevel', { level: session.logLevel }).catch(() => undefined);
    return connection;
  }

  private serverRequest(connection: ServerConnection, request: JsonRpcRequest, context: IncomingContext): Promise<Record<string, any>> {
    const owner = context.owner as RequestContext | SessionHandle | undefined;
    return this.serverRequests.relay(connection, request, owner, context.signal);
  }
}
