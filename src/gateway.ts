// Wiring only: config → one ServerConnection per server → catalog store → inbound sessions.
// Starts every server in parallel (none waits for another) and keeps serving whatever state
// each one ends up in.

import { createCursorCodec, type CursorCodec } from './catalog/cursor.js';
import type { Catalog, CatalogServerInput } from './catalog/build.js';
import { CatalogStore } from './catalog/store.js';
import type { GatewayConfig } from './config/types.js';
import type { JsonRpcMessage, JsonRpcNotification } from './jsonrpc/types.js';
import type { Logger } from './log.js';
import type { GatewayCore } from './inbound/context.js';
import type { InboundSessionHost } from './inbound/host.js';
import { ClientSession } from './inbound/session.js';
import { ServerConnection } from './outbound/server-connection.js';

export interface ServerSummary {
  name: string;
  state: string;
  transport: string;
  protocolVersion?: string;
  tools: number;
  prompts: number;
  resources: number;
  resourceTemplates: number;
  problem?: string;
}

export class Gateway implements GatewayCore, InboundSessionHost {
  readonly cursors: CursorCodec = createCursorCodec();
  readonly store: CatalogStore;
  private readonly servers = new Map<string, ServerConnection>();
  private readonly sessions = new Set<ClientSession>();

  constructor(
    readonly config: GatewayConfig,
    readonly logger: Logger,
  ) {
    for (const server of config.servers) {
      const connection = new ServerConnection(
        server,
        logger.child({ server: server.name }),
        {
          onChange: () => this.store.invalidate(),
          onNotification: (c, n) => this.serverNotification(c, n),
        },
        config.limits.maxMessageBytes,
      );
      this.servers.set(server.name, connection);
    }
    this.store = new CatalogStore(() => this.catalogInput(), config.naming);
    this.store.changed.subscribe((kinds) => {
      for (const session of this.sessions) session.notifyListChanged(kinds);
    });
  }

  get catalog(): Catalog {
    return this.store.current;
  }

  get pageSize(): number {
    return this.config.catalog.pageSize;
  }

  /** Connects every enabled server in parallel; resolves when each is ready or failed. */
  async start(): Promise<void> {
    await Promise.all([...this.servers.values()].map((c) => c.connect()));
    this.store.rebuild();
  }

  connection(name: string): ServerConnection | undefined {
    return this.servers.get(name);
  }

  connections(): readonly ServerConnection[] {
    return [...this.servers.values()];
  }

  openSession(push: (message: JsonRpcMessage) => void): ClientSession {
    const session = new ClientSession(this, push, (s) => this.sessions.delete(s));
    this.sessions.add(session);
    return session;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  instructions(): string | undefined {
    const parts: string[] = [];
    for (const c of this.servers.values()) {
      if (c.state === 'ready' && c.instructions) parts.push(`## ${c.name}\n\n${c.instructions.trim()}`);
    }
    if (parts.length === 0) return undefined;
    const sep = this.config.naming.separator;
    const header =
      this.config.naming.mode === 'always'
        ? `This endpoint merges several MCP servers. Tool and prompt names are prefixed with their server's prefix and "${sep}". Instructions from each server follow.`
        : 'This endpoint merges several MCP servers. Instructions from each server follow.';
    return `${header}\n\n${parts.join('\n\n')}`;
  }

  summary(): ServerSummary[] {
    return [...this.servers.values()].map((c) => {
      const s: ServerSummary = {
        name: c.name,
        state: c.state,
        transport: c.transportKind,
        tools: c.lists.tools.length,
        prompts: c.lists.prompts.length,
        resources: c.lists.resources.length,
        resourceTemplates: c.lists.resourceTemplates.length,
      };
      if (c.protocolVersion) s.protocolVersion = c.protocolVersion;
      if (c.problem && c.state !== 'ready') s.problem = c.problem;
      return s;
    });
  }

  async close(): Promise<void> {
    for (const session of [...this.sessions]) session.close();
    await Promise.all([...this.servers.values()].map((c) => c.close()));
    this.store.close();
  }

  private catalogInput(): CatalogServerInput[] {
    return [...this.servers.values()].map((c) => ({ config: c.config, ready: c.listed, lists: c.lists }));
  }

  private serverNotification(connection: ServerConnection, n: JsonRpcNotification): void {
    if (n.method === 'notifications/message') {
      const logger = n.params?.logger;
      const params = { ...n.params, logger: typeof logger === 'string' && logger ? `${connection.name}/${logger}` : connection.name };
      for (const session of this.sessions) session.send({ jsonrpc: '2.0', method: n.method, params });
      return;
    }
    this.logger.debug({ server: connection.name, method: n.method }, 'notification not forwarded');
  }
}
