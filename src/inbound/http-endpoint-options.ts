// The inbound HTTP endpoint's public shape: its options, the handle it returns, and the pages
// served beside the MCP path. Types only (and the /status path), so the app layer can name them
// without loading node:http.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from './http-auth.js';
import type { BoundPort } from './http-bind.js';
import type { Shares } from './principals.js';
import type { StateStore } from '../state/store.js';

/** The pino subset used here; a pino Logger fits. */
export interface HttpEndpointLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface HttpEndpointOptions {
  host: string;
  /** 0 = any free port. */
  port: number;
  /** A port bound already (serve binds before servers start): listen on it, not on host:port. */
  bound?: BoundPort;
  /** The MCP endpoint path, e.g. `/mcp`; matched exactly, query string ignored. */
  path: string;
  /** Origins allowed besides loopback ones (http(s)://localhost, 127.0.0.1, [::1], any port). */
  allowedOrigins: string[];
  /** Largest accepted POST body, in bytes. */
  maxMessageBytes: number;
  /** Deepest nesting accepted in a message (default 512). */
  maxDepth?: number;
  /** Host header names allowed besides loopback names and the bound address (no port). */
  allowedHosts?: string[];
  /** Sessions open at once; an initialize beyond it gets 503 (default 1000). */
  maxSessions?: number;
  /** A session with nothing in flight and no open stream this long is closed (default 1 h). */
  sessionIdleTimeoutMs?: number;
  /** The same for a session that never opened a GET stream (default: sessionIdleTimeoutMs). */
  streamlessSessionIdleTimeoutMs?: number;
  /** TCP connections held at once (default 512); past it, a newcomer makes room (http-connections.ts) or is closed. */
  maxConnections?: number;
  /** What one principal may hold of sessions, streams, connections, calls in flight (default DEFAULT_SHARES). */
  shares?: Shares;
  /** A connection with no authenticated request after this long is the first to go when room is short (default 1 s). */
  headersGraceMs?: number;
  /** Time a client has to send its whole request, headers and body (default 30 s). */
  requestTimeoutMs?: number;
  /** Bytes queued on one SSE stream of a client that does not read, before it is dropped (default 8 MiB). */
  writeBufferBytes?: number;
  logger?: HttpEndpointLogger;
  /**
   * Pages beside the MCP path, by exact path (GET and HEAD only): /status, /metrics, the
   * dashboard, OAuth metadata. Same Origin and Host checks as the MCP path.
   */
  pages?: ReadonlyMap<string, Page>;
  /**
   * Pages under a path prefix (the /connect/ pages of per-user credentials): GET, HEAD and POST,
   * public (no bearer token: they verify the browser themselves), Host checked as for every
   * request, not the Origin policy of MCP requests: the handler itself refuses a POST whose Origin
   * is not the gateway's public one, and bounds the form it reads.
   */
  prefixPage?: { readonly prefix: string; serve(req: IncomingMessage, res: ServerResponse): void };
  /**
   * Whether an authenticated principal may read an operator page. Without authentication
   * configured, operator pages are as open as the MCP endpoint itself.
   */
  isOperator?: (principal: string) => boolean;
  /**
   * When set, every request must carry a bearer token it accepts (401 otherwise). Its verdict may
   * be a promise (OAuth tokens to verify); no byte of the body is read before it is in.
   */
  authenticate?: Authenticator;
  /**
   * Where stateful sessions are recorded, so any replica sharing the store serves any of them
   * (and resumes their SSE streams). Absent: sessions live in this endpoint alone.
   */
  store?: StateStore;
  /** Called once a session's GET stream has closed, whichever side closed it (lets tests wait on it). */
  onGetStreamClosed?: (sessionId: string) => void;
}

export interface HttpEndpoint {
  /** e.g. `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Initialized sessions not yet deleted or closed. */
  sessionCount(): number;
  /** Sessions whose client is there now (a request in flight, an open GET stream) and the idle rest. */
  sessionActivity(): { live: number; idle: number };
  /**
   * First step of a graceful shutdown: stops listening, and answers new requests 503 while the
   * ones in progress finish. close() then ends everything.
   */
  stopAccepting(): void;
  /** Draining with other replicas: open SSE streams get `retry:` and are closed, to resume elsewhere. */
  handOver(): void;
  /** Resolves once every request in progress has been answered and its reply written out. */
  drain(): Promise<void>;
  /** Stops listening, ends streams, closes sessions, destroys sockets. Idempotent. */
  close(): Promise<void>;
}

/** Readiness: 200 while serving, 503 {"status":"draining"} from the start of a drain (a balancer's probe). */
export const HEALTH_PATH = '/healthz';

/** Where a running gateway tells its servers' states (switchboard status reads it). */
export const STATUS_PATH = '/status';

/** A page served beside the MCP path. */
export interface Page {
  /**
   * 'public': served without a token (e.g. RFC 9728 metadata, which a client needs before it has
   * one); 'operator': needs an operator profile's token when authentication is configured.
   */
  access: 'public' | 'operator';
  /** Served while the endpoint drains, when everything else gets 503 (the health page). */
  whileDraining?: boolean;
  /** Writes the whole reply; `principal` is the authenticated profile, if any. */
  serve(req: IncomingMessage, res: ServerResponse, principal: string | undefined): void;
}
