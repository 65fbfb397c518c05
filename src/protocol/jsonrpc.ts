// JSON-RPC 2.0 envelope types and the one classifier every inbound and outbound byte goes through.
// Payloads (params, result) are JsonObject: the gateway forwards them and never validates what
// it only relays; what it reads of them it checks (protocol/json.ts).

import type { JsonObject } from './json.js';

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: JsonObject;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** A request's or notification's params, as the gateway relays them (never validated). */
export type JsonRpcParams = NonNullable<JsonRpcRequest['params']>;
/** A response's result, as the gateway relays it. */
export type JsonRpcResult = JsonRpcResultResponse['result'];

export type MessageKind = 'request' | 'notification' | 'response' | 'invalid';

/**
 * Every JSON-RPC error code the gateway sends: the standard ones, the MCP ones, and two in the
 * server-defined range for refusals at the HTTP layer. docs/errors.md lists each (a test checks).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: resource not found (2025-11-25). */
  ResourceNotFound: -32002,
  /** HTTP face: a request refused before it reached a session (Origin, Host, token, method, media type). */
  TransportRefused: -32000,
  /** HTTP face: unknown or ended Mcp-Session-Id; the client starts a new session. */
  SessionNotFound: -32001,
  /** 2026-07-28: an HTTP header disagrees with the body (Mcp-Method, Mcp-Name, MCP-Protocol-Version…). */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its envelope does not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: a protocol version the gateway does not speak (data.supported, data.requested). */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25: the request cannot go on until a URL elicitation completes (data.elicitations). */
  URLElicitationRequired: -32042,
} as const;

function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Tells what a parsed value is, without looking inside params or result. */
export function classify(msg: unknown): MessageKind {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'invalid';
  const m = msg as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'invalid';
  // A request (or notification) with a result or error is neither: one reader would take it for
  // a request, another for a response; the gateway takes it for nothing.
  if ('method' in m && ('result' in m || 'error' in m)) return 'invalid';
  if (typeof m.method === 'string') {
    if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null)) return 'invalid';
    if (!('id' in m)) return 'notification';
    return isId(m.id) ? 'request' : 'invalid';
  }
  if ('result' in m || 'error' in m) {
    if ('result' in m && 'error' in m) return 'invalid';
    if ('error' in m) {
      const e = m.error as Record<string, unknown> | null;
      if (typeof e !== 'object' || e === null || typeof e.code !== 'number' || typeof e.message !== 'string') {
        return 'invalid';
      }
      return isId(m.id) || m.id === null ? 'response' : 'invalid';
    }
    return isId(m.id) ? 'response' : 'invalid';
  }
  return 'invalid';
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: '2.0', id, error };
}

export function resultResponse(id: JsonRpcId, result: JsonObject): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

export function isErrorResponse(m: JsonRpcResponse): m is JsonRpcErrorResponse {
  return (m as JsonRpcErrorResponse).error !== undefined;
}
