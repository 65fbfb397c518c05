// What a request handler sees: the gateway's state (catalog, connections, settings) and the
// request's own context (abort signal, progress sink). Handlers are plain async functions of
// (params, context) → result; they throw RpcError or GatewayError for failures.

import type { Catalog } from '../catalog/build.js';
import type { CursorCodec } from '../catalog/cursor.js';
import type { Logger } from '../log.js';
import type { ServerConnection } from '../outbound/server-connection.js';

/** What sessions need from the gateway. Implemented by gateway.ts. */
export interface GatewayCore {
  readonly catalog: Catalog;
  readonly pageSize: number;
  readonly cursors: CursorCodec;
  readonly logger: Logger;
  connection(name: string): ServerConnection | undefined;
  connections(): readonly ServerConnection[];
  /** Merged instructions of the ready servers, or undefined when none gave any. */
  instructions(): string | undefined;
}

export interface RequestContext {
  readonly gateway: GatewayCore;
  /** Aborted when the client cancels the request or the session ends. */
  readonly signal: AbortSignal;
  /** Set when the client asked for progress: relays a server's progress params to the client. */
  readonly progress?: (params: Record<string, any>) => void;
  /** The revision this session negotiated. */
  readonly protocolVersion: string;
}

export type Handler = (params: Record<string, any>, context: RequestContext) => Promise<Record<string, any>>;
