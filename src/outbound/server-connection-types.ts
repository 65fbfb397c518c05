// The shape of a server connection as the layers above see it: its states, the options it is
// made with, the events it raises, and what forward() takes. Types (and the list of states) only.

import type { JsonObject } from '../protocol/json.js';
import type { IncomingContext, RequestOptions } from '../jsonrpc/peer.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { ListKind } from '../protocol/mcp.js';
import type { ServerAuth } from './auth/types.js';
import type { RequestEnvelope } from './envelope.js';
import type { FailureReason } from './failure-reason.js';
import type { ListLimits } from './list-fetch.js';
import type { CallObserver } from './observing.js';
import type { ServerConnection } from './server-connection.js';

/** forward()'s options: the Peer's, and what the router says of the request's originating client. */
export interface ForwardOptions<O = never> extends RequestOptions<O> {
  /**
   * 2026-07-28 servers: the capabilities, log level and trace context of the client this request
   * is for (default: the connection's declared capabilities, the last logging/setLevel). Servers
   * of the stateful era get the trace keys only.
   */
  envelope?: RequestEnvelope;
}

/** Every state a connection can be in (metrics list them all as a state set). */
export const SERVER_STATES = ['connecting', 'ready', 'backing-off', 'failed', 'needs-login', 'needs-connect', 'disabled', 'closed'] as const;

export type ServerState = (typeof SERVER_STATES)[number];

export type ServerLists = Record<ListKind, JsonObject[]>;

/** `O` is the owner type the layer above attributes requests to (the router's RequestOwner). */
export interface ServerConnectionEvents<O = never> {
  /** State or lists changed; `kinds` lists the lists that were (re)fetched. */
  onChange?: (connection: ServerConnection<O>, kinds: readonly ListKind[]) => void;
  /** A notification the catalog does not consume; `owner` is the request context it belongs to, when known. */
  onNotification?: (connection: ServerConnection<O>, notification: JsonRpcNotification, owner?: O) => void;
  /** A request from the server (sampling, elicitation, roots). */
  onRequest?: (connection: ServerConnection<O>, request: JsonRpcRequest, context: IncomingContext<O>) => Promise<JsonObject>;
  /** Went down (failed, backing off or waiting for a login), and why, as a metric label. */
  onDown?: (connection: ServerConnection<O>, reason: FailureReason) => void;
  /** Connected again after a drop: server-side state (subscriptions, log level) needs restoring. */
  onReconnect?: (connection: ServerConnection<O>) => void;
}

export interface ServerConnectionOptions<O = never> {
  maxMessageBytes?: number;
  /** limits.maxDepth, limits.writeBuffer, limits.maxCallsPerServer. */
  maxDepth?: number;
  writeBufferBytes?: number;
  maxCallsInFlight?: number;
  /** Client capabilities we declare to the server (default: none). */
  clientCapabilities?: JsonObject;
  /** Fetch the lists at connect and on list_changed (default true; per-session connections don't). */
  fetchLists?: boolean;
  /** Owner of every server request on this connection (a per-session connection's session). */
  owner?: O;
  /** Reconnect after failures (default: on, with the server's policy). `check` turns it off. */
  reconnect?: boolean;
  /** HTTP: this OAuth client state instead of the process-wide one (the conformance driver's, interactive). */
  auth?: ServerAuth;
  /**
   * A per-user server's listing connection while no user has connected it: it waits in state
   * `needs-connect` with this as its problem (where to connect), and never starts.
   */
  needsConnect?: string;
  /** limits.* on lists, read at each fetch (default: the config's defaults). */
  listLimits?: () => ListLimits;
  /** Sees every forwarded request (metrics, traces). */
  observer?: CallObserver;
}
