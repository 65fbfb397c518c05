// The connection registry: the shared connection of each configured server (in config order,
// which is catalog order), the per-session ones of `isolation: per-session` servers, and what
// follows from the set of them (the merged capabilities, the log level each server was told).
// It routes a server name to the connection that serves a request: the shared one, the session's
// own (per-session isolation) or the user's own (per-user servers, per-user.ts; a user without a
// credential is asked to connect first, connect-ask.ts). It knows nothing else of sessions (their
// state is session-state.ts's) and builds no connection (the app does).

import { valueAt } from '../protocol/json.js';
import { SKILLS_EXTENSION } from '../catalog/skills.js';
import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import { IsolatedConnections } from './isolated.js';
import { ConnectAsks } from './connect-ask.js';
import { perUserOf, type PerUserBounds } from './per-user-config.js';
import { PerUserConnections, refusesCredential } from './per-user.js';
import type { Connection, RequestOwner, Session } from './session.js';

/** How the registry reaches per-user servers: the app opens a user's connection, the asks get a credential. */
export interface PerUserDeps {
  /** Opens `user`'s own connection; rejects with a CONNECT_REQUIRED GatewayError when the user has no usable credential. */
  open: (server: ServerConfig, user: string) => Promise<Connection>;
  /** credentials.connections, read at each opening. */
  bounds: () => PerUserBounds;
  asks: ConnectAsks;
  /**
   * The server's entry as configured, `${user.NAME}` unfilled: what a user's connection is made
   * from (the shared connection only lists, and may hold the listing user's filled copy).
   */
  entry: (name: string) => ServerConfig | undefined;
  /**
   * Whether `connection` still holds `user`'s current credential for it: false once it was revoked
   * or replaced (by another process too, such as `switchboard users revoke`). Checked on every call.
   */
  current: (connection: Connection, user: string, server: string) => Promise<boolean>;
  /** The server refused `user`'s credential during a call: drop it (they will be asked to connect again). */
  refused: (user: string, server: string) => Promise<void>;
}

/** The merged servers' capabilities, as one server's: what the gateway declares to its clients. */
export interface MergedCapabilities {
  tools?: { listChanged: true };
  prompts?: { listChanged: true };
  resources?: { listChanged: true; subscribe?: true };
  logging?: Record<string, never>;
  completions?: Record<string, never>;
  tasks?: MergedTasks;
  extensions?: Record<string, { directoryRead?: true }>;
}

export interface MergedTasks {
  list?: Record<string, never>;
  cancel?: Record<string, never>;
  requests?: { tools: { call: Record<string, never> } };
}

export class ConnectionRegistry {
  /** Shared connections by server name, in config order. */
  private servers = new Map<string, Connection>();
  private readonly isolated: IsolatedConnections;
  /** Per-user servers' connections, one per (user, server). */
  readonly perUser: PerUserConnections<Connection>;
  /** Told when a per-user connection closes (the router drops the subscriptions it held). */
  perUserClosed?: (connection: Connection) => void;
  /** The level each server was last told, to avoid telling it again. */
  private readonly levels = new Map<Connection, string>();

  constructor(
    /** Opens `session`'s own connection to a per-session server. */
    openIsolated: (server: ServerConfig, session: Session) => Promise<Connection>,
    /** limits.maxIsolatedConnections, read at each opening (a reload may change it). */
    maxIsolated: () => number,
    private readonly users: PerUserDeps = noPerUser,
  ) {
    this.isolated = new IsolatedConnections(openIsolated, maxIsolated);
    this.perUser = new PerUserConnections(users.open, users.bounds, Date.now, (c) => {
      this.levels.delete(c);
      this.perUserClosed?.(c);
    });
  }

  /** The shared connections from now on (config order is catalog order). */
  set(servers: Map<string, Connection>): void {
    this.servers = servers;
  }

  /** The shared connection of `name`. */
  get(name: string): Connection | undefined {
    return this.servers.get(name);
  }

  all(): readonly Connection[] {
    return [...this.servers.values()];
  }

  /**
   * The connection that serves `owner` for `server`: the shared one, the session's own under
   * per-session isolation, or the user's own for a per-user server (whose shared connection only
   * lists). The shared case answers at once: no await, no allocation.
   */
  for(server: string, owner: RequestOwner): Connection | Promise<Connection> {
    const shared = this.servers.get(server);
    if (!shared) throw new GatewayError('SERVER_UNAVAILABLE', `server "${server}" is not configured`, { server });
    if (perUserOf(shared.config) !== undefined) return this.forUser(shared.config, owner);
    if (shared.config.isolation === 'shared') return shared;
    return this.isolated.get(shared.config, owner.session);
  }

  /** The user's own connection; a user with no credential is asked to connect, once, and then it opens. */
  private async forUser(listing: ServerConfig, owner: RequestOwner): Promise<Connection> {
    const server = this.users.entry(listing.name);
    if (server === undefined) throw new GatewayError('SERVER_UNAVAILABLE', `server "${listing.name}" is not configured`, { server: listing.name });
    const user = owner.session.user;
    if (user === undefined) {
      throw new GatewayError(
        'CONNECT_REQUIRED',
        `server "${server.name}" is reached with each user's own credential, and this client has no user: the gateway must authenticate its clients (clients[].token or listen.auth) for it to be used`,
        { server: server.name },
      );
    }
    try {
      const connection = await this.perUser.get(server, user);
      if (await this.users.current(connection, user, server.name)) return connection;
      // Revoked or replaced: closed, and opened again from what the store holds now (or asked).
      await this.perUser.closeUser(user, server.name);
      return await this.perUser.get(server, user);
    } catch (err) {
      if (!(err instanceof GatewayError) || err.code !== 'CONNECT_REQUIRED') throw err;
    }
    await this.users.asks.ask(owner, user, server.name);
    return this.perUser.get(server, user);
  }

  /**
   * A call on `owner`'s per-user connection failed with `err`. When the server refused the
   * credential itself (401, a login no refresh avoided), nothing ran there: the credential is
   * dropped, the connection closed, the user asked to connect again, and the connection to retry
   * the call on is returned. Any other failure is thrown as it is.
   */
  async afterRefusal(connection: Connection, owner: RequestOwner, err: unknown): Promise<Connection> {
    const user = owner.session.user;
    if (!refusesCredential(err) || user === undefined || perUserOf(connection.config) === undefined) throw err;
    await this.users.refused(user, connection.name);
    await this.perUser.closeUser(user, connection.name);
    return this.forUser(connection.config, owner);
  }

  /** Revoke: `user`'s connections (to `server`, or all) close; their next call asks again. */
  closeUser(user: string, server?: string): Promise<void> {
    return this.perUser.closeUser(user, server);
  }

  /** `session`'s own connections (per-session servers it used). */
  ofSession(session: Session): Connection[] {
    return this.isolated.of(session);
  }

  /** What the ready servers offer, merged: the gateway emits list_changed itself whenever the catalog changes. */
  capabilities(): MergedCapabilities {
    const caps: MergedCapabilities = {};
    for (const c of this.servers.values()) {
      // A per-user server nobody has connected yet will list tools once someone does: a session
      // opened before that must be able to hear of them (a client lists only what was declared).
      if (c.state === 'needs-connect') caps.tools = { listChanged: true };
      if (c.state !== 'ready') continue;
      const s = c.capabilities;
      if (s.tools) caps.tools = { listChanged: true };
      if (s.prompts) caps.prompts = { listChanged: true };
      if (s.resources) caps.resources = { listChanged: true };
      if (s.logging) caps.logging = {};
      if (s.completions) caps.completions = {};
      if (valueAt(s, 'resources', 'subscribe')) caps.resources = { ...caps.resources!, subscribe: true };
      if (s.tasks) caps.tasks = mergeTasks(caps.tasks, s.tasks);
      // Skills: the gateway serves skills/list and skills/get itself, merged, and routes
      // resources/directory/read to the servers that implement it: directoryRead is declared
      // when one ready server does (skills-directory.ts refuses the others' directories).
      if (valueAt(s, 'extensions', SKILLS_EXTENSION) !== undefined) {
        const directoryRead = caps.extensions?.[SKILLS_EXTENSION]?.directoryRead === true || declaresDirectoryRead(s);
        caps.extensions = { ...caps.extensions, [SKILLS_EXTENSION]: directoryRead ? { directoryRead: true } : {} };
      }
    }
    return caps;
  }

  /** The ready shared connections whose server declared `extension`, in config order. */
  declaring(extension: string): Connection[] {
    return [...this.servers.values()].filter((c) => c.state === 'ready' && valueAt(c.capabilities, 'extensions', extension) !== undefined);
  }

  /** Tells every ready server that logs, shared or per-session, `level` (once: not again while it holds it). */
  async tellLevel(level: string): Promise<void> {
    const targets = [...this.servers.values(), ...this.isolated.all(), ...this.perUser.all()].filter((c) => c.state === 'ready' && c.capabilities.logging);
    await Promise.all(
      targets.map(async (c) => {
        if (this.levels.get(c) === level) return;
        this.levels.set(c, level);
        await c.request('logging/setLevel', { level }).catch(() => undefined);
      }),
    );
  }

  /** `connection` holds no level any more (it reconnected, or left). */
  forgetLevel(connection: Connection): void {
    this.levels.delete(connection);
  }

  /**
   * `session`'s roots changed. Shared connections declare roots without listChanged (they cannot
   * speak for every client): only a session's own connections hear it.
   */
  rootsChanged(session: Session): void {
    for (const c of this.isolated.of(session)) c.notify('notifications/roots/list_changed');
  }

  async closeServer(name: string): Promise<void> {
    await Promise.all([this.isolated.closeServer(name), this.perUser.closeServer(name)]);
  }

  closeSession(session: Session): Promise<void> {
    return this.isolated.closeSession(session);
  }

  /** Shutdown: the per-session and per-user connections close (the app closes the shared ones). */
  async closeAll(): Promise<void> {
    await Promise.all([this.isolated.closeAll(), this.perUser.closeAll()]);
  }
}

/** A gateway built without per-user support (tests of other parts): a per-user server cannot be reached. */
const noPerUser: PerUserDeps = {
  open: (server) => Promise.reject(new GatewayError('CONNECT_REQUIRED', `server "${server.name}" needs a per-user credential, which this gateway cannot open`, { server: server.name })),
  bounds: () => ({ perUser: 0, total: 0, idleTimeoutMs: 0 }),
  asks: new ConnectAsks(() => undefined),
  entry: () => undefined,
  current: async () => false,
  refused: async () => {},
};

/** Whether a server's capabilities say it implements resources/directory/read (SEP-2640: `directoryRead: true`, nothing else). */
export function declaresDirectoryRead(capabilities: unknown): boolean {
  return valueAt(capabilities, 'extensions', SKILLS_EXTENSION, 'directoryRead') === true;
}

/** Tasks capability of the merged servers: what any of them offers for tools/call. */
function mergeTasks(into: MergedTasks | undefined, tasks: { list?: unknown; cancel?: unknown; requests?: { tools?: { call?: unknown } } }): MergedTasks {
  const out: MergedTasks = { ...into };
  if (tasks.list) out.list = {};
  if (tasks.cancel) out.cancel = {};
  if (tasks.requests?.tools?.call) out.requests = { tools: { call: {} } };
  return out;
}
