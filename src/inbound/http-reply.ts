// Whole (non-streamed) HTTP replies of the inbound endpoint, each written with one writeHead and a
// Content-Length. Refusals carry a JSON-RPC error response with id null (the spec allows a body
// without an id); their bodies never change, so they are serialized once at load time.

import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { limitStatus, type LimitScope } from '../errors.js';
import { ErrorCode, errorResponse, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import type { SplicedResponse } from '../jsonrpc/raw.js';
import { pieceMode, writePiece } from '../jsonrpc/wire-bytes.js';

const TRANSPORT_ERROR = ErrorCode.TransportRefused;
const SESSION_NOT_FOUND = ErrorCode.SessionNotFound;

export function errorBody(code: number, message: string, data?: unknown): string {
  return JSON.stringify(errorResponse(null, code, message, data));
}

/** The status of a limit reached comes from the gateway's error table (src/errors.ts). */
export { limitStatus };

export function limitHeaders(retryAfterMs: number | undefined): OutgoingHttpHeaders {
  return { 'Retry-After': String(Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000))) };
}

export const Refusal = {
  pathNotFound: errorBody(TRANSPORT_ERROR, 'Not Found: this server only serves its MCP endpoint path'),
  badOrigin: errorBody(TRANSPORT_ERROR, 'Forbidden: Origin not allowed'),
  badHost: errorBody(TRANSPORT_ERROR, 'Forbidden: Host not allowed'),
  methodNotAllowed: errorBody(TRANSPORT_ERROR, 'Method Not Allowed: use POST, GET or DELETE'),
  postNotAcceptable: errorBody(TRANSPORT_ERROR, 'Not Acceptable: Accept must include both application/json and text/event-stream'),
  getNotAcceptable: errorBody(TRANSPORT_ERROR, 'Not Acceptable: Accept must include text/event-stream'),
  unsupportedMediaType: errorBody(TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json'),
  parseError: errorBody(ErrorCode.ParseError, 'Parse error: the body is not valid JSON'),
  batch: errorBody(ErrorCode.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one message per POST'),
  invalidMessage: errorBody(ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response'),
  missingSession: errorBody(ErrorCode.InvalidRequest, 'Bad Request: missing Mcp-Session-Id header'),
  alreadyInitialized: errorBody(ErrorCode.InvalidRequest, 'Invalid Request: session already initialized'),
  badProtocolVersion: errorBody(ErrorCode.InvalidRequest, 'Bad Request: unsupported MCP-Protocol-Version'),
  sessionNotFound: errorBody(SESSION_NOT_FOUND, 'Session not found'),
  getWithoutSession: errorBody(TRANSPORT_ERROR, 'Method Not Allowed: GET needs an Mcp-Session-Id (protocol 2025-11-25 and earlier); in 2026-07-28 open a stream with a subscriptions/listen POST'),
  deleteWithoutSession: errorBody(TRANSPORT_ERROR, 'Method Not Allowed: DELETE needs an Mcp-Session-Id (protocol 2025-11-25 and earlier); 2026-07-28 has no sessions to end'),
  streamConflict: errorBody(TRANSPORT_ERROR, 'Conflict: this session already has an open GET stream'),
  internalError: errorBody(ErrorCode.InternalError, 'Internal error'),
  unauthorized: errorBody(TRANSPORT_ERROR, 'Unauthorized: a valid bearer token is required'),
  wrongClient: errorBody(TRANSPORT_ERROR, 'Forbidden: this session belongs to another client'),
  shuttingDown: errorBody(TRANSPORT_ERROR, 'Service Unavailable: the gateway is shutting down'),
  storeDown: errorBody(TRANSPORT_ERROR, 'Service Unavailable: the state store is unreachable; try again later'),
  notOperator: errorBody(TRANSPORT_ERROR, 'Forbidden: /status is for operator clients (clients[].operator: true)'),
  tooManySessions: errorBody(TRANSPORT_ERROR, 'Service Unavailable: too many sessions are open (limits.maxSessions); try again later'),
} as const;

export function tooLargeBody(limit: number): string {
  return errorBody(TRANSPORT_ERROR, `Payload Too Large: a message may be at most ${limit} bytes`);
}

export const ALLOW_HEADERS: OutgoingHttpHeaders = { Allow: 'GET, POST, DELETE' };
export const CLOSE_HEADERS: OutgoingHttpHeaders = { Connection: 'close' };

/** A JSON reply; `extra` headers are merged in (e.g. Allow, Connection: close). */
export function replyJson(res: ServerResponse, status: number, body: string, extra?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  const headers: OutgoingHttpHeaders = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  };
  if (extra !== undefined) Object.assign(headers, extra);
  res.writeHead(status, headers);
  res.end(body);
}

/** The body of a reply: JSON text, or a server's answer passed on as bytes (jsonrpc/raw.ts). */
export type MessageBody = string | SplicedResponse;

export function bodyBytes(body: MessageBody): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** The hot path: a JSON-RPC response to a POSTed request, tagged with its session. */
export function replyMessage(res: ServerResponse, body: MessageBody, sessionId: string | undefined, status = 200, extra?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) return;
  if (extra !== undefined) {
    const headers: OutgoingHttpHeaders = { 'Content-Type': 'application/json', 'Content-Length': bodyBytes(body), ...extra };
    if (sessionId !== undefined) headers['Mcp-Session-Id'] = sessionId;
    res.writeHead(status, headers);
  } else {
    // The common reply: headers as a flat list, which node:http takes without walking an object.
    const length = String(bodyBytes(body));
    res.writeHead(
      status,
      sessionId === undefined ? ['Content-Type', 'application/json', 'Content-Length', length] : ['Content-Type', 'application/json', 'Content-Length', length, 'Mcp-Session-Id', sessionId],
    );
  }
  if (typeof body === 'string') {
    res.end(body);
    return;
  }
  // The server's bytes, as text of the same bytes when the socket is idle, else copied
  // (jsonrpc/wire-bytes.ts says why); corked, so they leave with the headers in one writev.
  const { chunks } = body;
  // A small answer spliced as one string (raw.ts): as any string body.
  if (chunks.length === 1 && typeof chunks[0] === 'string') {
    res.end(chunks[0]);
    return;
  }
  const mode = pieceMode(res, body.byteLength);
  res.cork();
  for (const piece of chunks) writePiece(res, piece, mode);
  res.end();
  res.uncork();
}

/** The HTTP status for a response: a refusal for a limit (LIMIT_EXCEEDED) is 429/503, anything else 200. */
export function statusOf(response: JsonRpcResponse): { status: number; headers?: OutgoingHttpHeaders } {
  const data = (response as { error?: { data?: { code?: unknown; limit?: LimitScope; retryAfterMs?: number } } }).error?.data;
  if (data?.code !== 'LIMIT_EXCEEDED') return { status: 200 };
  return { status: limitStatus(data.limit), headers: limitHeaders(data.retryAfterMs) };
}

/** A reply without a body: 202 for accepted notifications and responses, 200 for DELETE. */
export function replyEmpty(res: ServerResponse, status: number, sessionId?: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, sessionId === undefined ? { 'Content-Length': 0 } : { 'Content-Length': 0, 'Mcp-Session-Id': sessionId });
  res.end();
}
