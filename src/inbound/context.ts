// What a request handler sees: the gateway (catalog, config, audit, cursors), the connection
// registry, the state kept per session on servers' behalf, the app's tool search, the session that
// asked, and the request's own context (cancellation, progress sink, the channel for messages
// related to it). Handlers are plain async functions of (params, context) → result; they throw
// RpcError or GatewayError for failures. A RequestContext is also the RequestOwner the router
// attributes a server's messages to.

import type { CatalogEntry } from '../catalog/build.js';
import type { CatalogView } from '../catalog/view.js';
import type { Cancellation } from '../jsonrpc/cancellation.js';
import type { RawResponse } from '../jsonrpc/raw.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcParams, JsonRpcResult } from '../protocol/jsonrpc.js';
import type { Envelope } from '../protocol/stateless.js';
import type { ConnectionRegistry } from '../router/connections.js';
import type { Gateway } from '../router/router.js';
import type { SessionState } from '../router/session-state.js';
import type { RequestOwner } from '../router/session.js';
import type { ClientSession } from './client-session.js';

/** A tool a search found: its entry in the view that searched, and how well it matched. */
export interface FoundTool {
  entry: CatalogEntry;
  score: number;
}

/** The app's tool search (app/tool-finder.ts), as handlers reach it. */
export interface ToolFinding {
  /**
   * The tools of `view` that best match a query, best first: never one outside the view, never
   * one meant for an app's UI alone; with `servers`, only tools of those servers.
   */
  find(view: CatalogView, query: string, options: { limit: number; servers?: ReadonlySet<string> }): Promise<FoundTool[]>;
}

export interface RequestContext extends RequestOwner {
  /** The catalog in force, the config, audit, logging, cursors: read-only. */
  readonly gateway: Gateway;
  /** Server name → the connection serving this session (shared, or its own under isolation). */
  readonly connections: ConnectionRegistry;
  /** Subscriptions, task ids, parked calls, requestState and requests to clients, kept per session. */
  readonly sessionState: SessionState;
  /** search_tools' engine, owned by the app. */
  readonly finder: ToolFinding;
  readonly session: ClientSession;
  /** The catalog as this session's client profile sees it (the whole catalog without one). */
  readonly view: CatalogView;
  /** Cancelled when the client cancels the request or the session ends. */
  readonly cancellation: Cancellation;
  /** Set when the client asked for progress: relays a server's progress params to the client. */
  readonly progress?: (params: JsonRpcParams) => void;
  /** Messages tied to this request (on HTTP: this POST's SSE stream). */
  readonly related?: (message: JsonRpcMessage) => void;
  /** The revision this request is served in (the session's, or the request's own envelope's). */
  readonly protocolVersion: string;
  /** The client's id for this request. */
  readonly requestId: JsonRpcId;
  /** The request's envelope, when it came in the stateless revision. */
  readonly envelope?: Envelope;
  /** A stateless HTTP request's headers (Mcp-Param-* are checked against the arguments). */
  readonly httpHeaders?: HttpHeaders;
  /** On HTTP: the principal's share of calls in flight, which each nested call of a run takes one more of. */
  readonly share?: CallShare;
  /**
   * Set on a nested call of a code-mode run (nested-call.ts): its server's input rounds are
   * answered by the gateway (through the run's client), never handed up as the call's result.
   */
  readonly nested?: boolean;
}

/**
 * What one principal may have in flight (limits.perPrincipal.callsInFlight), as a nested call takes
 * it, and its code-mode runs at once (codeMode.maxRunsPerPrincipal).
 */
export interface CallShare {
  readonly limit: number;
  /** Takes one call; false when the principal is at its share. */
  take(): boolean;
  give(): void;
  readonly runLimit: number;
  /** Takes one run; false when the principal runs as many as it may. */
  takeRun(): boolean;
  giveRun(): void;
}

export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A handler answers a result, or (tools/call's pass-through) the server's own answer as text. */
export type Handler = (params: JsonRpcParams, context: RequestContext) => Promise<JsonRpcResult | RawResponse>;
