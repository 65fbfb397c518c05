// What a request handler sees: the gateway's state (catalog, connections, settings), the
// session that asked, and the request's own context (abort signal, progress sink, the channel
// for messages related to it). Handlers are plain async functions of (params, context) → result;
// they throw RpcError or GatewayError for failures.

import type { Catalog } from '../catalog/build.js';
import type { CursorCodec } from '../catalog/cursor.js';
import type { Cancellation } from '../jsonrpc/cancellation.js';
import type { CatalogView } from '../catalog/view.js';
import type { ClientProfile, GatewayConfig } from '../config/types.js';
import type { AuditLog } from '../observability/audit.js';
import type { JsonRpcMessage, JsonRpcNotification } from '../jsonrpc/types.js';
import type { Logger } from '../log.js';
import type { ServerConnection } from '../outbound/server-connection.js';
import type { Subscriptions } from './subscriptions.js';
import type { TaskIds } from './task-ids.js';

/** A client session as the rest of the gateway may use it. */
export interface SessionHandle {
  readonly id: string;
  readonly clientCapabilities: Record<string, any>;
  /** The session's logging/setLevel, if it sent one. */
  readonly logLevel: string | undefined;
  /** The client profile this session was authenticated as, if any. */
  readonly profile?: ClientProfile;
  /** Sends a request to the client (through `via`, else the session's own channel). */
  requestClient(method: string, params: Record<string, any> | undefined, via?: (m: JsonRpcMessage) => void, signal?: AbortSignal): Promise<Record<string, any>>;
  /** A notification not tied to a request (list_changed, logging, resource updates). */
  send(notification: JsonRpcNotification): void;
  setLogLevel(level: string): void;
}

/** What sessions need from the gateway. Implemented by gateway.ts. */
export interface GatewayCore {
  readonly catalog: Catalog;
  readonly pageSize: number;
  readonly cursors: CursorCodec;
  readonly logger: Logger;
  readonly subscriptions: Subscriptions;
  readonly tasks: TaskIds;
  readonly config: GatewayConfig;
  readonly audit: AuditLog;
  connection(name: string): ServerConnection | undefined;
  /** The connection that serves `session` for `server` (its own one under per-session isolation). */
  connectionFor(server: string, session: SessionHandle): ServerConnection | Promise<ServerConnection>;
  connections(): readonly ServerConnection[];
  /** Merged instructions of the ready servers the view sees, or undefined when none gave any. */
  instructions(view: CatalogView): string | undefined;
  /** A session set its log level: servers get the most verbose level any session wants. */
  logLevelChanged(): Promise<void>;
  /** A session said its roots changed: tell the servers that serve it under its roots. */
  rootsChanged(session: SessionHandle): void;
  /** A request of a session finished (lets a graceful shutdown know when all are done). */
  requestSettled(): void;
  /** The session ended: release what it held on servers (subscriptions, own connections). */
  sessionClosed(session: SessionHandle): void;
}

export interface RequestContext {
  readonly gateway: GatewayCore;
  readonly session: SessionHandle;
  /** The catalog as this session's client profile sees it (the whole catalog without one). */
  readonly view: CatalogView;
  /** Cancelled when the client cancels the request or the session ends. */
  readonly cancellation: Cancellation;
  /** Set when the client asked for progress: relays a server's progress params to the client. */
  readonly progress?: (params: Record<string, any>) => void;
  /** Messages tied to this request (on HTTP: this POST's SSE stream). */
  readonly related?: (message: JsonRpcMessage) => void;
  /** The revision this session negotiated. */
  readonly protocolVersion: string;
}

export type Handler = (params: Record<string, any>, context: RequestContext) => Promise<Record<string, any>>;
