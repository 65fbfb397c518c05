// A Router wired as the app wires it (store, shared connections on fake servers, per-session
// connections opened on demand), with sessions that record what they are sent. Test files must
// vi.mock the stdio transport (see ../outbound/connection-harness.ts).

import { CatalogStore } from '../../../src/catalog/store.js';
import type { CatalogView } from '../../../src/catalog/view.js';
import type { GatewayConfig, ServerConfig } from '../../../src/config/types.js';
import { silentLogger } from '../../../src/log.js';
import { createAuditLog } from '../../../src/observability/audit.js';
import { ServerConnection } from '../../../src/outbound/server-connection.js';
import type { JsonRpcMessage, JsonRpcNotification } from '../../../src/protocol/jsonrpc.js';
import { passesLevel } from '../../../src/protocol/mcp.js';
import { Router } from '../../../src/router/router.js';
import type { Connection, RequestOwner, Session } from '../../../src/router/session.js';
import { gatewayConfig } from '../outbound/connection-harness.js';

/** A client session that sees the servers it is told to, and records everything sent to it. */
export class RecordingSession implements Session {
  private static count = 0;
  readonly id = `session-${++RecordingSession.count}`;
  clientCapabilities: Record<string, any> = { sampling: {}, elicitation: { url: {} } };
  logLevel: string | undefined;
  readonly sent: JsonRpcNotification[] = [];
  readonly asked: Array<{ method: string; params?: Record<string, any>; via: boolean }> = [];
  readonly view: CatalogView;

  constructor(sees: (server: string) => boolean = () => true) {
    this.view = { lists: undefined as never, allowsUri: () => true, seesServer: sees };
  }

  async requestClient(method: string, params: Record<string, any> | undefined, via?: (m: JsonRpcMessage) => void): Promise<Record<string, any>> {
    this.asked.push({ method, params, via: via !== undefined });
    return { answeredBy: this.id };
  }

  send(notification: JsonRpcNotification): void {
    this.sent.push(notification);
  }

  // As its own requests' client (RequestClient), the way ClientSession is for a stateful request.
  hears(level: unknown): boolean {
    return passesLevel(level, this.logLevel);
  }
  get rootsFromConfig(): boolean {
    return this.clientCapabilities.roots === undefined;
  }
  readonly unaskable = undefined;

  /** The notifications it got with this method. */
  got(method: string): Record<string, any>[] {
    return this.sent.filter((n) => n.method === method).map((n) => n.params ?? {});
  }
}

export interface Wired {
  router: Router;
  config: GatewayConfig;
  /** Per-session connections opened so far, with the session each is for. */
  isolated: Array<{ server: string; session: Session; connection: Connection }>;
  connect(): Promise<void>;
  close(): Promise<void>;
}

/** A router over `servers` (YAML server entries whose `command` names a fake server). */
export function wire(servers: Record<string, unknown>[], extra: Record<string, unknown> = {}): Wired {
  const config = gatewayConfig({ ...extra, servers });
  const isolated: Wired['isolated'] = [];
  const logger = silentLogger();
  let router!: Router;
  const connections = () => router.connections();
  const store = new CatalogStore(() => connections().map((c) => ({ config: c.config, ready: c.listed, lists: c.lists, instructions: c.instructions })), config.naming);
  router = new Router({
    store,
    audit: createAuditLog({ logger }),
    logger,
    config: () => config,
    openIsolated: async (server: ServerConfig, session: Session) => {
      const connection = new ServerConnection<RequestOwner>(server, logger, router.connectionEvents(), { fetchLists: false, owner: { session, client: session }, reconnect: false });
      await connection.connect();
      isolated.push({ server: server.name, session, connection });
      return connection;
    },
  });
  router.setConnections(new Map(config.servers.map((s) => [s.name, new ServerConnection<RequestOwner>(s, logger, router.connectionEvents(), {})])));
  return {
    router,
    config,
    isolated,
    async connect() {
      await Promise.all(router.connections().map((c) => c.connect()));
      store.rebuild();
    },
    async close() {
      await router.close();
      await Promise.all(router.connections().map((c) => c.close()));
    },
  };
}
