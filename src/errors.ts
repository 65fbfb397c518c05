// Gateway failures with stable codes. A server's own JSON-RPC error is relayed as it is, and a
// tool failure is a result with isError: these are for what goes wrong in the gateway itself.
// Every code is listed in docs/errors.md; test/unit/errors.test.ts keeps that list complete.

import { ErrorCode, type JsonRpcErrorObject } from './protocol/jsonrpc.js';

export const GatewayErrorCode = {
  /** The configuration file is missing, unparsable or invalid. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** The server is not connected (failed to start, crashed, or still connecting). */
  SERVER_UNAVAILABLE: 'SERVER_UNAVAILABLE',
  /** The server did not answer within its timeout. */
  SERVER_TIMEOUT: 'SERVER_TIMEOUT',
  /** The connection to the server closed while the request was in flight. */
  CONNECTION_CLOSED: 'CONNECTION_CLOSED',
  /** The server speaks no protocol revision the gateway speaks. */
  PROTOCOL_MISMATCH: 'PROTOCOL_MISMATCH',
  /** The server broke the protocol (bad handshake, invalid response). */
  PROTOCOL_ERROR: 'PROTOCOL_ERROR',
  /** A message over limits.maxMessageBytes was dropped. */
  MESSAGE_TOO_LARGE: 'MESSAGE_TOO_LARGE',
  /** An HTTP server answered with an error status. */
  HTTP_ERROR: 'HTTP_ERROR',
  /** The request was cancelled by the client or by shutdown. */
  CANCELLED: 'CANCELLED',
  /** A message nested deeper than limits.maxDepth was refused. */
  MESSAGE_TOO_DEEP: 'MESSAGE_TOO_DEEP',
  /** A limit (calls or bytes in flight, write buffer, sessions, per-session connections) was reached; try again later. */
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  /** A server's list was over limits.maxListItems or limits.maxListBytes: the server is failed. */
  LIST_TOO_LARGE: 'LIST_TOO_LARGE',
} as const;

export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/** JSON-RPC code used when a GatewayError crosses the inbound boundary. */
const jsonRpcCodeOf: Record<GatewayErrorCode, number> = {
  CONFIG_INVALID: ErrorCode.InternalError,
  SERVER_UNAVAILABLE: ErrorCode.InternalError,
  SERVER_TIMEOUT: ErrorCode.InternalError,
  CONNECTION_CLOSED: ErrorCode.InternalError,
  PROTOCOL_MISMATCH: ErrorCode.InternalError,
  PROTOCOL_ERROR: ErrorCode.InternalError,
  HTTP_ERROR: ErrorCode.InternalError,
  MESSAGE_TOO_LARGE: ErrorCode.InternalError,
  CANCELLED: ErrorCode.InternalError,
  MESSAGE_TOO_DEEP: ErrorCode.InternalError,
  LIMIT_EXCEEDED: ErrorCode.InternalError,
  LIST_TOO_LARGE: ErrorCode.InternalError,
};

export interface GatewayErrorData {
  code: GatewayErrorCode;
  server?: string;
  /** LIMIT_EXCEEDED: when trying again makes sense. */
  retryAfterMs?: number;
  /** LIMIT_EXCEEDED: whose limit — this client's session, this client's share (all its sessions), a server's, or the whole gateway's. */
  limit?: LimitScope;
  /** LIMIT_EXCEEDED, where it says: the setting whose limit was reached (`limits.maxSubscriptions`). */
  setting?: string;
}

export type LimitScope = 'session' | 'principal' | 'server' | 'gateway';

export class GatewayError extends Error {
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
    return { code: jsonRpcCodeOf[this.code], message: this.message, data };
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
/**
 * An RpcError the gateway decides before serving, which HTTP answers with a status of its own:
 * 'request' → 400, 'method' → 404 (the stateless revision's rules).
 */
export class RefusalError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly kind: 'request' | 'method',
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RefusalError';
  }
}

export class RpcError extends Error {
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
}

/**
 * Any failure as the JSON-RPC error object it becomes at a boundary: RpcError and GatewayError as
 * themselves, anything else (a bug) as -32603 with its message.
 */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  if (err instanceof RpcError || err instanceof GatewayError) return err.toJsonRpc();
  return { code: ErrorCode.InternalError, message: `Internal error: ${describeError(err)}` };
}
