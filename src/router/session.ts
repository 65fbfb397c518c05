// What the router knows of a client session, and of the request a message to a server is for.
// Defined here, below the inbound layer, so the router and outbound never import inbound:
// ClientSession implements Session; a handler's RequestContext is a RequestOwner.

import type { JsonObject } from '../protocol/json.js';
import type { CatalogView } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';
import type { ServerConnection } from '../outbound/server-connection.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcParams, JsonRpcResult } from '../protocol/jsonrpc.js';
import type { InputBridge } from './input-bridge.js';
import type { Cancellation } from '../jsonrpc/cancellation.js';

/**
 * The client a request answers to, as the router needs it: what it hears and what it can be
 * asked. The inbound era adapter fills it in (the session itself for a stateful request, its
 * envelope's view for a stateless one), so the router asks a capability, never an era.
 */
export interface RequestClient {
  readonly clientCapabilities: JsonObject;
  /** Whether a log line at `level` that belongs to this request goes to its client. */
  hears(level: unknown): boolean;
  /** roots/list gets the configured roots instead of asking (a client that declared no roots). */
  readonly rootsFromConfig: boolean;
  /** Why the client cannot be asked a server's request during this request; undefined: it can. */
  readonly unaskable: string | undefined;
}

/** A client session; as a RequestClient, the client of its own (stateful) requests. */
export interface Session extends RequestClient {
  readonly id: string;
  /** The session's logging/setLevel, if it sent one. */
  readonly logLevel: string | undefined;
  /** The client profile this session was authenticated as, if any. */
  readonly profile?: ClientProfile;
  /**
   * The user per-user servers' credentials belong to: the principal the HTTP face authenticated
   * (an OAuth subject, `profile:<name>` for a static token), `credentials.localUser` on stdio;
   * undefined for a client the gateway did not authenticate.
   */
  readonly user?: string;
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
  /** The request's client: the session's own, or the request's envelope's (stateless revision). */
  readonly client: RequestClient;
  readonly related?: (message: JsonRpcMessage) => void;
  /** Set when a stateless-revision request may ask its client for input (MRTR): where server requests park. */
  readonly inputs?: InputBridge;
  /** The request's cancellation (a client's request has one): what waits for the client stops with it. */
  readonly cancellation?: Cancellation;
}

/** A server connection as the router uses it: its requests are attributed to RequestOwners. */
export type Connection = ServerConnection<RequestOwner>;
