// The composition root: config → one ServerConnection per server → catalog store → router →
// sessions on the stdio and HTTP faces. start / listen / reload(plan) / drain / close, and
// nothing else: signals, files and process.exit belong to the CLI. Every server connects in
// parallel; none waits for another.
//
//   new App(config) ─start()─▶ servers connecting ─listen()─▶ serving ─drain(ms)─▶ draining ─close()─▶ closed
//                                      ▲ reload(next): plan applied, sessions told list_changed

import type { Catalog, CatalogExposure, CatalogServerInput } from '../catalog/build.js';
import type { CodeDeclarer } from '../catalog/code-tool.js';
import { loadTokenCounter } from '../search/tokens.js';
import type { GuardOptions } from '../catalog/guard.js';
import { CatalogStore } from '../catalog/store.js';
import type { GatewayConfig } from '../config/types.js';
import { ByteBudget } from '../inbound/budget.js';
import { ClientSession } from '../inbound/client-session.js';
import type { SessionOpener } from '../inbound/session-opener.js';
import type { JsonRpcMessage } from '../protocol/jsonrpc.js';
import type { Logger } from '../log.js';
import { createAuditLog, type AuditLog } from '../observability/audit.js';
import { GuardReporter } from '../observability/guard-report.js';
import { Observer } from '../observability/observer.js';
import { tapAudit } from '../observability/recent-audit.js';
import { startObservability, type Observability } from '../observability/setup.js';
import { handlers } from '../inbound/handlers/index.js';
import type { LockFile } from '../catalog/pinning.js';
import { readLock } from './lock-file.js';
import { SERVER_STATES } from '../outbound/server-connection.js';
import { summarize, type ServerSummary } from '../outbound/summary.js';
import { Router } from '../router/router.js';
import { openStore } from '../state/open-store.js';
import { takeSharedKey } from './shared-key.js';
import type { SessionRecord, StateStore } from '../state/store.js';
import { ToolFinder } from './tool-finder.js';
import { ConnectionFactory } from './connection-factory.js';
import { PerUserServers } from './per-user-servers.js';
import type { ConnectAsker } from '../router/connect-ask.js';
import type { CredentialStore } from '../state/credentials.js';
import type { Connection } from '../router/session.js';
import { openFaces, type FaceOptions, type Faces } from './faces.js';
import { openConnector, type AppConnector } from './connector.js';
import { planReload, type ReloadPlan } from './reload-plan.js';
import { exposureOf, nearABudget, usesCodeMode } from './exposure.js';
import { RequestsSettled } from './requests-settled.js';

export type { ServerSummary };

export interface AppOptions {
  /** Reconnect servers that fail or drop (default true; `check` makes one attempt). */
  reconnect?: boolean;
  /** Where OTEL_* and SWITCHBOARD_METRICS are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The state store to use instead of opening one (tests: two apps sharing a MemoryStore act as two replicas). */
  stateStore?: StateStore;
  /** Per-user credentials to use instead of opening the configured store (tests). */
  credentials?: CredentialStore;
  /** The connect pages that ask users to connect per-user servers (src/connect/; tests: a fake). */
  connectAsker?: ConnectAsker;
}

/** Stateless sessions have no channel for messages not tied to a request. */
const NOTHING_PUSHED = (): void => {};

export class App implements SessionOpener {
  readonly store: CatalogStore;
  readonly router: Router;
  /** search_tools' engine: the search index of the catalog, loaded on the first search. */
  readonly finder: ToolFinder;
  readonly audit: AuditLog;
  /** Metrics and traces: observes nothing until listen() switches them on. */
  readonly observer: Observer;
  /** Bytes all sessions together may hold in flight (limits.totalBytesInFlight). */
  readonly budget: ByteBudget;
  /** The lock file's pins, read at start and on every reload (undefined: no lock file). */
  private lock?: LockFile;
  /** Whether every request in progress has been answered (for drain). */
  private readonly settled = new RequestsSettled(() => {
    let n = 0;
    for (const s of this.router.allSessions() as Iterable<ClientSession>) n += s.inFlightCount;
    return n;
  });
  /** The o200k counter, loading or loaded (see exactTokens). */
  private exact?: Promise<void>;
  private faces?: Faces;
  /** Sessions' records, SSE events and messages between replicas (src/state/): opened by start(), closed by close(). */
  state?: StateStore;
  private observability?: Observability;
  /** The /connect pages and the ConnectAsker of per-user credentials (issue 33): opened by listen() when a server is per-user. */
  connect?: AppConnector;
  /** Code mode's declarer, once loaded (see loadCodeMode). */
  private declare?: CodeDeclarer;
  /** Per-user servers (issue 33): their credentials, connect pages, users' connections and listing. */
  readonly perUser: PerUserServers;
  /** Builds every server connection: shared, a user's own, a session's own. */
  private readonly connections: ConnectionFactory;

  constructor(
    private current: GatewayConfig,
    readonly logger: Logger,
    private readonly options: AppOptions = {},
  ) {
    this.budget = new ByteBudget(current.limits.totalBytesInFlight, 'the gateway', 'limits.totalBytesInFlight', 'gateway');
    this.observer = new Observer(() => this.store.current);
    this.audit = tapAudit(createAuditLog({ file: current.sanitize.auditLog, logger }), (entry) => this.observer.audited(entry));
    this.store = new CatalogStore(() => this.catalogInput(), current.naming, this.guardOptions(), this.exposure());
    this.connections = new ConnectionFactory({ config: () => this.current, logger, events: () => this.router.connectionEvents(), observer: this.observer, reconnect: options.reconnect });
    this.perUser = new PerUserServers(
      {
        router: () => this.router,
        audit: this.audit,
        logger,
        config: () => this.current,
        stateStore: () => this.state,
        shared: (server, listing) => this.connections.shared(server, listing),
        own: (entry, user, auth) => this.connections.own(entry, user, auth),
        invalidate: () => this.store.invalidate(),
      },
      { credentials: options.credentials, connectAsker: options.connectAsker },
    );
    this.router = new Router({
      store: this.store,
      audit: this.audit,
      logger,
      config: () => this.current,
      openIsolated: (s, session) => this.connections.isolated(s, session),
      observer: this.observer,
      openPerUser: (s, user) => this.perUser.open(s, user),
      perUserCurrent: (c, user, server) => this.perUser.current(c, user, server),
      perUserRefused: (user, server) => this.perUser.refused(user, server),
      connectAsker: () => this.perUser.connectAsker,
    });
    this.router.setConnections(new Map(current.servers.map((s) => [s.name, this.connections.shared(s)])));
    this.finder = new ToolFinder(
      () => this.store.current,
      () => this.current.catalog.embeddings,
    );
    const reporter = new GuardReporter(this.audit, logger);
    this.store.snapshots.subscribe((catalog) => {
      reporter.report(catalog.report);
      this.countExactlyIfClose(catalog);
    });
    this.store.changed.subscribe((kinds) => {
      for (const session of this.router.allSessions()) (session as ClientSession).notifyListChanged(kinds);
    });
  }

  get config(): GatewayConfig {
    return this.current;
  }

  get catalog(): Catalog {
    return this.store.current;
  }

  /**
   * Connects every enabled server in parallel. Resolves once each is ready or failed, or after
   * `waitMs` if given: a server still starting then joins the catalog when it is ready, and
   * sessions hear list_changed (one hung server must not hold back everyone else).
   */
  async start(waitMs?: number): Promise<void> {
    await Promise.all([this.loadLock(), this.loadCodeMode(), this.openState()]);
    await this.perUser.startListing(this.current.servers);
    const all = Promise.all(this.router.connections().map((c) => c.connect()));
    if (waitMs === undefined) await all;
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    this.store.rebuild();
  }

  /**
   * Applies a new config without a restart (see planReload): added servers start, removed ones
   * stop, changed ones restart, unchanged ones are not touched (their in-flight calls finish).
   * Sessions hear list_changed for whatever that changes. Resolves when the new servers are up or
   * failed.
   */
  async reload(next: GatewayConfig): Promise<ReloadPlan> {
    const plan = this.retryOverLimit(planReload(this.current, next), next);
    this.current = next;
    for (const session of this.router.allSessions() as Iterable<ClientSession>) {
      const renewed = session.profile && plan.profiles.get(session.profile.name);
      if (renewed) session.updateProfile(renewed);
    }
    const starting: Promise<void>[] = [];
    const stopping: Promise<void>[] = [];
    for (const name of plan.removed) stopping.push(this.router.retire(this.router.connection(name)!));
    const servers = new Map<string, Connection>();
    const fresh = new Map([...plan.added, ...plan.restarted].map((s) => [s.name, s]));
    for (const name of plan.order) {
      const entry = fresh.get(name);
      const old = this.router.connection(name);
      if (!entry) {
        servers.set(name, old!);
        continue;
      }
      const connection = this.connections.shared(entry);
      if (old) {
        this.router.transfer(old, connection);
        stopping.push(this.router.retire(old));
      }
      servers.set(name, connection);
      starting.push(connection.connect().then(() => this.router.restore(connection)));
    }
    this.router.setConnections(servers);
    starting.push(this.perUser.startListing([...fresh.values()]));
    this.faces?.reloaded();
    this.store.setExposure(this.exposure());
    await this.loadCodeMode();
    if (plan.namingChanged) this.store.setNaming(next.naming);
    // Sanitizer settings, pinning policy or the lock file itself may have changed.
    await this.loadLock();
    this.store.invalidate();
    await Promise.all([...starting, ...stopping]);
    this.store.invalidate();
    return plan;
  }

  /**
   * New list bounds (limits.maxListItems, maxListBytes) give a server that failed over the old
   * ones another start: its entry did not change, but what it was failed for did.
   */
  private retryOverLimit(plan: ReloadPlan, next: GatewayConfig): ReloadPlan {
    const [a, b] = [this.current.limits, next.limits];
    if (a.maxListItems === b.maxListItems && a.maxListBytes === b.maxListBytes) return plan;
    const retry = plan.kept.filter((name) => {
      const c = this.router.connection(name);
      return c?.state === 'failed' && (c.failure === 'list_items' || c.failure === 'list_bytes');
    });
    if (retry.length === 0) return plan;
    return { ...plan, kept: plan.kept.filter((n) => !retry.includes(n)), restarted: [...plan.restarted, ...next.servers.filter((s) => retry.includes(s.name))] };
  }

  /** Opens the client faces (stdio, HTTP); resolves with the HTTP URL when there is one. */
  async listen(options: FaceOptions): Promise<string | undefined> {
    this.observability = await startObservability(
      this.observer,
      {
        servers: () => this.summary(),
        sessionProfiles: () => [...(this.router.allSessions() as Iterable<ClientSession>)].map((s) => s.profile?.name),
        catalog: () => this.store.current,
        profiles: () => this.current.clients,
        exactTokens: () => this.exactTokens(),
        sessionActivity: () => this.faces?.sessionActivity() ?? { live: 0, idle: 0 },
        stateStore: () => this.state,
        serverStates: SERVER_STATES,
      },
      { http: options.http !== undefined, env: this.options.env ?? process.env, logger: this.logger, knownMethods: new Set(['initialize', ...handlers.keys()]) },
    );
    const status = () => ({ servers: this.summary(), sessions: this.sessionCount });
    // start() opened the state store; without it (a test listening on an app never started) no pages.
    this.connect =
      this.state &&
      (await openConnector({
        config: () => this.current,
        state: this.state,
        audit: this.audit,
        logger: this.logger,
        httpFace: options.http !== undefined,
        faceUrl: () => this.faces?.url,
        perUser: this.perUser,
      }));
    const connect = this.connect?.connector;
    // The pages ask users to connect, unless a test gave its own asker.
    if (connect !== undefined && this.options.connectAsker === undefined) this.useConnectAsker(connect);
    const prefixPage = connect === undefined ? undefined : { prefix: '/connect/', serve: connect.handle.bind(connect) };
    this.faces = await openFaces({ opener: this, config: () => this.current, logger: this.logger, status, pages: this.observability.pages, stateStore: this.state, prefixPage }, options);
    return this.faces.url;
  }

  /**
   * Graceful shutdown, first step: stops accepting, then waits until every request in progress
   * has been answered and its answer written, for at most `ms`. Resolves true if all finished.
   */
  async drain(ms: number): Promise<boolean> {
    this.faces?.stopAccepting();
    // Listen streams last until told: end them, or the drain would wait for them to its deadline.
    for (const session of this.router.allSessions() as Iterable<ClientSession>) session.endListens();
    let timer: NodeJS.Timeout | undefined;
    const finished = Promise.all([this.settled.done(), this.faces?.repliesWritten()]).then(() => true);
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const outcome = await Promise.race([finished, late]);
    clearTimeout(timer);
    this.faces?.handOver();
    return outcome;
  }

  /**
   * Loads the o200k tokenizer once (~250 ms, ~10 MB): budgets and every figure shown count exactly
   * from then on. Whatever shows a figure (check, the dashboard, /metrics) awaits this first, so
   * there is one figure everywhere; the cheap estimate only decides far from a budget.
   */
  exactTokens(): Promise<void> {
    this.exact ??= loadTokenCounter().then((counter) => {
      this.store.setExposure({ ...this.exposure(), counter });
      this.store.rebuild();
    });
    return this.exact;
  }

  /** The exposure settings of the config in force (exposure.ts). */
  private exposure(): CatalogExposure {
    return exposureOf(this.current, this.store?.current.exposure.counter, this.declare);
  }

  /**
   * Code mode's declarations (codemode's bindings, never its engine) load only when some view is
   * in code mode: a gateway that never offers run_code never loads them.
   */
  private async loadCodeMode(): Promise<void> {
    if (this.declare || !usesCodeMode(this.current)) return;
    this.declare = (await import('../inbound/code-callables.js')).declareCallables;
    this.store.setExposure(this.exposure());
  }

  /** Loads the exact token counter in the background when some view is near a budget (exposure.ts). */
  private countExactlyIfClose(catalog: Catalog): void {
    if (catalog.exposure.counter !== undefined || this.exact || !nearABudget(catalog, this.current)) return;
    void this.exactTokens().catch((err) => this.logger.warn({ err: String(err) }, 'token counter not loaded; auto mode decides on estimates'));
  }

  openSession(push: (message: JsonRpcMessage) => void, principal?: string, parent: ByteBudget = this.budget): ClientSession {
    return this.restoreSession(undefined, push, principal, parent);
  }
  /** A new session, or (given its record) one initialized on another replica. */
  restoreSession(record: SessionRecord | undefined, push: (message: JsonRpcMessage) => void, principal?: string, parent: ByteBudget = this.budget): ClientSession {
    const profile = principal === undefined ? undefined : this.current.clients.find((c) => c.name === principal);
    const budget = new ByteBudget(this.current.limits.sessionBytesInFlight, 'this session', 'limits.sessionBytesInFlight', 'session', parent);
    const session = new ClientSession(this.router, this.finder, push, budget, profile, () => this.settled.ended());
    if (record !== undefined) session.restore(record);
    this.router.attach(session);
    return session;
  }

  get keyId(): string {
    return this.router.keyId;
  }

  /** The connect pages from now on (src/connect/ hands itself over once it serves). */
  useConnectAsker(asker: ConnectAsker): void {
    this.perUser.connectAsker = asker;
  }

  /** The per-user credentials (issue 33): the configured store, opened once, on first use. */
  credentials(): Promise<CredentialStore> {
    return this.perUser.credentials();
  }

  openStatelessSession(principal?: string): ClientSession {
    const profile = principal === undefined ? undefined : this.current.clients.find((c) => c.name === principal);
    // Its bytes count against the gateway's whole budget only: it is every stateless client of
    // this profile at once, so a per-session budget would let one of them starve the others.
    const session = new ClientSession(this.router, this.finder, NOTHING_PUSHED, this.budget, profile, () => this.settled.ended(), true);
    this.router.attach(session);
    return session;
  }

  get sessionCount(): number {
    return this.router.sessionCount;
  }

  summary(): ServerSummary[] {
    return summarize(this.router.connections());
  }

  /** Ends everything: faces, sessions, servers (and their processes), the audit log. Idempotent enough to call once. */
  async close(): Promise<void> {
    // First: no listing is started while everything else closes.
    await this.perUser.close();
    await this.faces?.close();
    await this.connect?.close();
    for (const session of [...this.router.allSessions()] as ClientSession[]) session.close();
    await this.router.close();
    await Promise.all(this.router.connections().map((c) => c.close()));
    this.store.close();
    await this.state?.close();
    await this.audit.close();
    // Last: the spans of everything above are exported before the process ends.
    await this.observability?.close();
  }

  /** The state store (`state:`: memory, or Redis). Its shared key signs cursors unless listen.stateKey does (one per process in memory). */
  private async openState(): Promise<void> {
    const state = (this.state = this.options.stateStore ?? (await openStore(this.current, this.logger)));
    if (this.current.listen.stateKey !== undefined) return;
    await takeSharedKey(state, (key, keyId) => this.router.useKey(key, keyId), this.logger);
  }

  /** Reads the lock file; a malformed one is reported and pins nothing (a missing one is normal). */
  private async loadLock(): Promise<void> {
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

  private catalogInput(): CatalogServerInput[] {
    const described = new Map(this.current.servers.map((s) => [s.name, s.description]));
    return this.router.connections().map((c) => {
      // A per-user server whose last listing credential was revoked keeps its tools listed (a call asks to connect).
      const kept = c.state === 'needs-connect' ? this.perUser.kept(c.name) : undefined;
      if (kept !== undefined) return { config: c.config, ready: true, lists: kept.lists, instructions: kept.instructions, serverInfo: kept.serverInfo, description: described.get(c.name) };
      return { config: c.config, ready: c.listed, lists: c.lists, instructions: c.instructions, serverInfo: c.serverInfo, description: described.get(c.name) };
    });
  }
}
