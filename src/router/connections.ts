// The connection registry: the shared connection of each configured server (in config order,
// which is catalog order), the per-session ones of `isolation: per-session` servers, and what
// follows from the set of them (the merged capabilities, the log level each server was told).
// It routes a server name to the connection that serves a session; it knows nothing else of
// sessions (their state is session-state.ts's) and builds no connection (the app does).

import { valueAt } from '../protocol/json.js';
import type { ServerConfig } from '../config/types.js';
import { GatewayError } from '../errors.js';
import { IsolatedConnections } from './isolated.js';
import type { Connection, Session } from './session.js';

/** The merged servers' capabilities, as one server's: what the gateway declares to its clients. */
export interface MergedCapabilities {
  tools?: { listChanged: true };
  prompts?: { listChanged: true };
  resources?: { listChanged: true; subscribe?: true };
  logging?: Record<string, never>;
  completions?: Record<string, never>;
  tasks?: MergedTasks;
  extensions?: Record<string, object>;
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
  /** The level each server was last told, to avoid telling it again. */
  private readonly levels = new Map<Connection, string>();

  constructor(
    /** Opens `session`'s own connection to a per-session server. */
    openIsolated: (server: ServerConfig, session: Session) => Promise<Connection>,
    /** limits.maxIsolatedConnections, read at each opening (a reload may change it). */
    maxIsolated: () => number,
  ) {
    this.isolated = new IsolatedConnections(openIsolated, maxIsolated);
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

  /** The connection that serves `session` for `server`: the shared one, or its own under per-session isolation. */
  for(server: string, session: Session): Connection | Promise<Connection> {
    const shared = this.servers.get(server);
    if (!shared) throw new GatewayError('SERVER_UNAVAILABLE', `server "${server}" is not configured`, { server });
    if (shared.config.isolation === 'shared') return shared;
    return this.isolated.get(shared.config, session);
  }

  /** `session`'s own connections (per-session servers it used). */
  ofSession(session: Session): Connection[] {
    return this.isolated.of(session);
  }

  /** What the ready servers offer, merged: the gateway emits list_changed itself whenever the catalog changes. */
  capabilities(): MergedCapabilities {
    const caps: MergedCapabilities = {};
    for (const c of this.servers.values()) {
      if (c.state !== 'ready') continue;
      const s = c.capabilities;
      if (s.tools) caps.tools = { listChanged: true };
      if (s.prompts) caps.prompts = { listChanged: true };
      if (s.resources) caps.resources = { listChanged: true };
      if (s.logging) caps.logging = {};
      if (s.completions) caps.completions = {};
      if (valueAt(s, 'resources', 'subscribe')) caps.resources = { ...caps.resources!, subscribe: true };
      if (s.tasks) caps.tasks = mergeTasks(caps.tasks, s.tasks);
    }
    return caps;
  }

  /** Tells every ready server that logs, shared or per-session, `level` (once: not again while it holds it). */
  async tellLevel(level: string): Promise<void> {
    const targets = [...this.servers.values(), ...this.isolated.all()].filter((c) => c.state === 'ready' && c.capabilities.logging);
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

  closeServer(name: string): Promise<void> {
    return this.isolated.closeServer(name);
  }

  closeSession(session: Session): Promise<void> {
    return this.isolated.closeSession(session);
  }

  /** Shutdown: the per-session connections close (the app closes the shared ones). */
  closeAll(): Promise<void> {
    return this.isolated.closeAll();
  }
}

/** Tasks capability of the merged servers: what any of them offers for tools/call. */
function mergeTasks(into: MergedTasks | undefined, tasks: { list?: unknown; cancel?: unknown; requests?: { tools?: { call?: unknown } } }): MergedTasks {
  const out: MergedTasks = { ...into };
  if (tasks.list) out.list = {};
  if (tasks.cancel) out.cancel = {};
  if (tasks.requests?.tools?.call) out.requests = { tools: { call: {} } };
  return out;
}
