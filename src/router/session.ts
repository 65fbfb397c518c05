// What the router knows of a client session, and of the request a message to a server is for.
// Defined here, below the inbound layer, so the router and outbound never import inbound:
// ClientSession implements Session; a handler's RequestContext is a RequestOwner.

import type { JsonObject } from '../protocol/json.js';
import type { CatalogView } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';
import type { ServerConnection } from '../outbound/server-connection.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcParams, JsonRpcResult } from '../protocol/jsonrpc.js';
import type { Envelope } from '../protocol/stateless.js';
import type { InputBridge } from './input-bridge.js';

export interface Session {
  readonly id: string;
  readonly clientCapabilities: JsonObject;
  /** The session's logging/setLevel, if it sent one. */
  readonly logLevel: string | undefined;
  /** The client profile this session was authenticated as, if any. */
  readonly profile?: ClientProfile;
  /** The catalog as this session's profile sees it. */
  readonly view: CatalogView;
  /** Sends a request to the client (through `via`, else the session's own channel). */
  requestClient(method: string, params: JsonRpcParams | undefined, via?: (m: JsonRpcMessage) => void, signal?: AbortSignal): Promise<JsonRpcResult>;
  /** A notification not tied to a request (list_changed, logging, resource updates). */
  send(notification: JsonRpcNotification): void;
}

/**
 * Who a request to a server is for: always a session; for a request a client made, also the
 * channel of that request (on HTTP, its POST's SSE stream), where messages about it belong.
 */
export interface RequestOwner {
  readonly session: Session;
  readonly related?: (message: JsonRpcMessage) => void;
  /**
   * Set when the request came in the stateless revision: its own capabilities and log level
   * apply, not the session's (a log line without a logLevel is not sent at all).
   */
  readonly envelope?: Envelope;
  /** Set when a stateless-revision request may ask its client for input (MRTR): where server requests park. */
  readonly inputs?: InputBridge;
}

/** A server connection as the router uses it: its requests are attributed to RequestOwners. */
export type Connection = ServerConnection<RequestOwner>;
