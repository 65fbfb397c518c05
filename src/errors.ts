// The gateway's one error family: every failure it raises is a SwitchboardError, which knows the
// JSON-RPC error object a client gets and, where an HTTP face answers it with a status of its own,
// that status. A server's own JSON-RPC error is relayed as it is (RpcError), and a tool failure is
// a result with isError. Every stable code is in CODES below and in docs/errors.md;
// test/unit/errors.test.ts keeps the two the same.

import { ErrorCode, type JsonRpcErrorObject } from './protocol/jsonrpc.js';
import type { RefusalKind } from './protocol/stateless.js';

export type LimitScope = 'session' | 'principal' | 'server' | 'gateway';

/**
 * The stable codes (a client's `error.data.code`) and how each crosses a boundary: the JSON-RPC
 * code of the error (always -32603: a client matches on `data.code`), and the HTTP status an HTTP
 * face answers with. Only LIMIT_EXCEEDED has one of its own (by whose limit it is); every other
 * code travels as a JSON-RPC error in a 200.
 */
const CODES = {
  /** The configuration file is missing, unparsable or invalid. */
  CONFIG_INVALID: { jsonRpc: ErrorCode.InternalError },
  /** The server is not connected (failed to start, crashed, or still connecting). */
  SERVER_UNAVAILABLE: { jsonRpc: ErrorCode.InternalError },
  /** The server did not answer within its timeout. */
  SERVER_TIMEOUT: { jsonRpc: ErrorCode.InternalError },
  /** The connection to the server closed while the request was in flight. */
  CONNECTION_CLOSED: { jsonRpc: ErrorCode.InternalError },
  /** The server speaks no protocol revision the gateway speaks. */
  PROTOCOL_MISMATCH: { jsonRpc: ErrorCode.InternalError },
  /** The server broke the protocol (bad handshake, invalid response). */
  PROTOCOL_ERROR: { jsonRpc: ErrorCode.InternalError },
  /** A message over limits.maxMessageBytes was dropped. */
  MESSAGE_TOO_LARGE: { jsonRpc: ErrorCode.InternalError },
  /** An HTTP server answered with an error status. */
  HTTP_ERROR: { jsonRpc: ErrorCode.InternalError },
  /** The request was cancelled by the client or by shutdown. */
  CANCELLED: { jsonRpc: ErrorCode.InternalError },
  /** Sessions shared by replicas: the replica serving the call stopped before answering; another answers this once. */
  REPLICA_STOPPED: { jsonRpc: ErrorCode.InternalError },
  /** A resumed SSE stream: the answer was sent once on the original stream and was too large to keep (state.maxEventBytes). */
  ANSWER_NOT_KEPT: { jsonRpc: ErrorCode.InternalError },
  /** A message nested deeper than limits.maxDepth was refused. */
  MESSAGE_TOO_DEEP: { jsonRpc: ErrorCode.InternalError },
  /** A limit (calls or bytes in flight, write buffer, sessions, per-session connections) was reached; try again later. */
  LIMIT_EXCEEDED: { jsonRpc: ErrorCode.InternalError, http: { session: 429, principal: 429, server: 503, gateway: 503 } },
  /** A server's list was over limits.maxListItems or limits.maxListBytes: the server is failed. */
  LIST_TOO_LARGE: { jsonRpc: ErrorCode.InternalError },
  /** Outbound OAuth: an interactive login is needed (no token, refresh failed, or step-up) and none can happen now. */
  AUTH_REQUIRED: { jsonRpc: ErrorCode.InternalError },
  /** Outbound OAuth: discovery, registration or a grant failed (AS unreachable, bad metadata, denied). */
  AUTH_FAILED: { jsonRpc: ErrorCode.InternalError },
  /** Outbound OAuth: the server refused the request for a reason new credentials cannot fix (403 without scope). */
  AUTH_FORBIDDEN: { jsonRpc: ErrorCode.InternalError },
  /** Per-user credentials: this user has no usable credential for the server (or the client has no user) and cannot be asked to connect now. */
  CONNECT_REQUIRED: { jsonRpc: ErrorCode.InternalError },
} as const satisfies Record<string, { jsonRpc: number; http?: Record<LimitScope, number> }>;

export type GatewayErrorCode = keyof typeof CODES;

/** Each code by name (`GatewayErrorCode.SERVER_TIMEOUT`), for code that prefers that to the string. */
export const GatewayErrorCode = Object.freeze(Object.fromEntries(Object.keys(CODES).map((code) => [code, code]))) as { readonly [C in GatewayErrorCode]: C };

/** The codes of AuthError: outbound OAuth's part of the table. */
export const AuthErrorCode = {
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  AUTH_FAILED: 'AUTH_FAILED',
  AUTH_FORBIDDEN: 'AUTH_FORBIDDEN',
} as const satisfies Record<string, GatewayErrorCode>;

export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

/** A limit that is this client's own (its session's, its share) is "too many requests"; the gateway's or a server's is "unavailable". */
export function limitStatus(limit: LimitScope | undefined): 429 | 503 {
  // Read from an error's data, which a server's relayed error can fill too: anything not in the table is the gateway's.
  const statuses = CODES.LIMIT_EXCEEDED.http;
  return typeof limit === 'string' && Object.hasOwn(statuses, limit) ? statuses[limit] : statuses.gateway;
}

/** The HTTP status of a refusal decided before serving (the stateless revision's rules). */
export const REFUSAL_STATUS: Readonly<Record<RefusalKind, 400 | 404>> = { request: 400, method: 404 };

/** The family: what every gateway error knows about how it crosses a boundary. */
export abstract class SwitchboardError extends Error {
  /** The JSON-RPC error object a client receives. */
  abstract toJsonRpc(): JsonRpcErrorObject;
  /** The status an HTTP face answers with, where it has one of its own; undefined: 200 with the error in the body. */
  abstract httpStatus(): number | undefined;
}

export interface GatewayErrorData {
  code: GatewayErrorCode;
  server?: string;
  /** LIMIT_EXCEEDED: when trying again makes sense. */
  retryAfterMs?: number;
  /** LIMIT_EXCEEDED: whose limit — this client's session, this client's share (all its sessions), a server's, or the whole gateway's. */
  limit?: LimitScope;
  /** LIMIT_EXCEEDED, where it says: the setting whose limit was reached (`limits.maxSubscriptions`). */
  setting?: string;
  /** AUTH_*: the scopes a login would have to grant. */
  scopes?: string[];
}

/** A failure in the gateway itself, with a stable code from CODES. */
export class GatewayError extends SwitchboardError {
  readonly code: GatewayErrorCode;
  readonly server?: string;
  readonly retryAfterMs?: number;
  readonly limit?: LimitScope;
  readonly setting?: string;
  /** HTTP_ERROR: the status the server answered (the auto transport falls back on 400/404/405). */
  readonly status?: number;
  /** For the operator only (logs, check, status): what the server printed, paths. Never sent to a client. */
  readonly detail?: string;
  constructor(code: GatewayErrorCode, message: string, options?: { server?: string; cause?: unknown; retryAfterMs?: number; limit?: LimitScope; setting?: string; detail?: string; status?: number }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'GatewayError';
    this.code = code;
    this.server = options?.server;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options?.detail !== undefined) this.detail = options.detail;
    if (options?.limit !== undefined) this.limit = options.limit;
    if (options?.status !== undefined) this.status = options.status;
    if (options?.setting !== undefined) this.setting = options.setting;
  }

  /** The JSON-RPC error object a client receives. `data.code` is the stable gateway code. */
  toJsonRpc(): { code: number; message: string; data: GatewayErrorData } {
    const data: GatewayErrorData = { code: this.code };
    if (this.server !== undefined) data.server = this.server;
    if (this.retryAfterMs !== undefined) data.retryAfterMs = this.retryAfterMs;
    if (this.limit !== undefined) data.limit = this.limit;
    if (this.setting !== undefined) data.setting = this.setting;
    return { code: CODES[this.code].jsonRpc, message: this.message, data };
  }

  httpStatus(): number | undefined {
    return this.code === 'LIMIT_EXCEEDED' ? limitStatus(this.limit) : undefined;
  }
}

/**
 * Outbound OAuth's failures (src/outbound/auth): a GatewayError always naming the server, and for
 * AUTH_REQUIRED after a scope challenge the scopes a login must grant. Its messages never carry a
 * token, a code, a client secret or a URL query string.
 */
export class AuthError extends GatewayError {
  declare readonly code: AuthErrorCode;
  declare readonly server: string;
  readonly scopes?: string[];
  constructor(code: AuthErrorCode, server: string, message: string, options?: { scopes?: string[]; cause?: unknown }) {
    super(code, message, { server, cause: options?.cause });
    this.name = 'AuthError';
    if (options?.scopes) this.scopes = options.scopes;
  }

  override toJsonRpc(): { code: number; message: string; data: GatewayErrorData } {
    const error = super.toJsonRpc();
    if (this.scopes !== undefined) error.data.scopes = this.scopes;
    return error;
  }
}

/** Any error as a message fit for a log line or a client, never a stack. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * A JSON-RPC error: one the gateway answers itself (unknown tool, bad cursor, bad params), or the
 * other side's, relayed as it is (a server's to a client, a client's to a server). Crosses every
 * boundary unchanged.
 */
export class RpcError extends SwitchboardError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  static of(error: JsonRpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }

  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  httpStatus(): number | undefined {
    return undefined;
  }
}

/**
 * A JSON-RPC error the gateway decides before serving, which HTTP answers with a status of its own
 * (REFUSAL_STATUS: 'request' → 400, 'method' → 404). Not an RpcError: code that catches a
 * server's error to relay it never catches one of these.
 */
export class RefusalError extends SwitchboardError {
  constructor(
    readonly code: number,
    message: string,
    readonly kind: RefusalKind,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RefusalError';
  }

  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  httpStatus(): 400 | 404 {
    return REFUSAL_STATUS[this.kind];
  }
}

/**
 * Any failure as the JSON-RPC error object it becomes at a boundary: one of the family as itself,
 * anything else (a bug) as -32603 with its message.
 */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof SwitchboardError) return err.toJsonRpc();
  return { code: ErrorCode.InternalError, message: `Internal error: ${describeError(err)}` };
}
