// How the app builds server connections, of the three kinds the registry holds: a server's shared
// one (for a per-user server, its listing connection), a user's own to a per-user server, and a
// session's own under `isolation: per-session`. All take the config's limits as they are now (a
// reload's new list bounds apply to connections it kept) and report to the same observer.

import { UI_EXTENSION } from '../catalog/ui-uris.js';
import type { GatewayConfig, ServerConfig } from '../config/types.js';
import type { Logger } from '../log.js';
import type { Observer } from '../observability/observer.js';
import type { ServerAuth } from '../outbound/auth/types.js';
import { ServerConnection, type ServerConnectionEvents } from '../outbound/server-connection.js';
import { type JsonObject, valueAt } from '../protocol/json.js';
import type { Connection, RequestOwner, Session } from '../router/session.js';
import type { UserEntry } from './per-user-open.js';
import { needsConnect } from './per-user-servers.js';

/**
 * What a shared connection declares: what the gateway can route. Sampling, elicitation and roots
 * requests a server sends during a call go to the client that made the call (and fail with an
 * error for a client that did not declare them, or when no call can be told). Servers register
 * capability-gated tools from this, so the catalog connection of a per-session server declares the
 * same: its tools are what each session's own connection will offer.
 */
const SHARED_CLIENT_CAPABILITIES = { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } };

export interface ConnectionFactoryDeps {
  config(): GatewayConfig;
  logger: Logger;
  /** The router's handlers of connection events. */
  events(): ServerConnectionEvents<RequestOwner>;
  observer: Observer;
  /** Reconnect servers that fail or drop (AppOptions.reconnect). */
  reconnect: boolean | undefined;
}

export class ConnectionFactory {
  constructor(private readonly deps: ConnectionFactoryDeps) {}

  /**
   * The shared connection of `server`. A per-user server's only lists (calls go to each user's
   * own): made from `listing`, a user's filled entry, or until a user has connected, one that
   * waits in `needs-connect` saying where to connect.
   */
  shared(server: ServerConfig, listing?: UserEntry): Connection {
    const waiting = listing === undefined ? needsConnect(this.deps.config(), server) : undefined;
    return new ServerConnection<RequestOwner>(listing?.entry ?? server, this.deps.logger.child({ server: server.name }), this.deps.events(), {
      ...this.common(),
      clientCapabilities: SHARED_CLIENT_CAPABILITIES,
      ...(listing?.auth ? { auth: listing.auth } : {}),
      ...(waiting !== undefined ? { needsConnect: waiting } : {}),
    });
  }

  /** `user`'s own connection to a per-user server (calls only: its lists are the listing connection's). */
  own(entry: ServerConfig, user: string, auth: ServerAuth | undefined): Connection {
    return new ServerConnection<RequestOwner>(entry, this.deps.logger.child({ server: entry.name, user }), this.deps.events(), {
      ...this.common(),
      clientCapabilities: SHARED_CLIENT_CAPABILITIES,
      fetchLists: false,
      ...(auth ? { auth } : {}),
    });
  }

  /** `session`'s own connection to a per-session server, connected and told the session's log level. */
  async isolated(server: ServerConfig, session: Session): Promise<Connection> {
    const caps = session.clientCapabilities;
    const declared: JsonObject = {};
    for (const key of ['roots', 'sampling', 'elicitation'] as const) if (caps[key]) declared[key] = caps[key];
    // The client's own MCP Apps settings (its MIME types) where they differ from ours: this
    // connection speaks for that one client. Without them it declares the gateway's.
    const ui = valueAt(caps, 'extensions', UI_EXTENSION);
    if (ui !== null && typeof ui === 'object') declared.extensions = { [UI_EXTENSION]: ui };
    const connection = new ServerConnection<RequestOwner>(server, this.deps.logger.child({ server: server.name, session: session.id }), this.deps.events(), {
      ...this.common(),
      clientCapabilities: declared,
      fetchLists: false,
      owner: { session, client: session },
    });
    await connection.connect();
    if (connection.state !== 'ready') throw connection.unavailable();
    if (session.logLevel && connection.capabilities.logging) await connection.request('logging/setLevel', { level: session.logLevel }).catch(() => undefined);
    return connection;
  }

  /** What every connection gets: the limits in force, reconnecting, the observer. */
  private common() {
    const l = this.deps.config().limits;
    return {
      maxMessageBytes: l.maxMessageBytes,
      maxDepth: l.maxDepth,
      writeBufferBytes: l.writeBufferBytes,
      maxCallsInFlight: l.maxCallsPerServer,
      // List bounds are read at each fetch: a reload's new ones apply to servers it kept too.
      listLimits: () => this.deps.config().limits,
      reconnect: this.deps.reconnect,
      observer: this.deps.observer,
    };
  }
}
