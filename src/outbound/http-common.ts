// What the outbound HTTP transports share: options, the status-carrying error, URL redaction,
// error bodies read to a bounded excerpt, and a body's text parsed into messages (SSE bodies are
// read by http-sse-reader.ts). Invariant: no error message carries a query string or credentials.

import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import type { ServerAuth } from './auth/types.js';
import { responseIdInHead } from '../jsonrpc/ndjson.js';
import { DEFAULT_MAX_DEPTH, parseJsonText } from '../jsonrpc/parse.js';
import type { JsonRpcId, JsonRpcMessage } from '../protocol/jsonrpc.js';

export type HttpTransportKind = 'streamable-http' | 'sse';

/** Pino-compatible subset; only ever given ids, statuses and redacted URLs, never header values. */
export interface HttpLogger {
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface HttpTransportOptions {
  url: string;
  /** From config (e.g. Authorization). Sent on every request; values are never logged. */
  headers?: Record<string, string>;
  logger?: HttpLogger;
  /** Largest single message (JSON body or SSE event) accepted; bigger ones are dropped. Default 16 MiB. */
  maxMessageBytes?: number;
  /** Deepest nesting accepted in a message (limits.maxDepth). Default 512. */
  maxDepth?: number;
  /** Upper bound of parallel connections to the server (each open SSE stream holds one). Default 64. */
  maxConnections?: number;
  /** How long to wait for response headers of a POST. Default 300 s (JSON-mode servers answer late). */
  headersTimeoutMs?: number;
  /** The server's OAuth client state: its token goes on every request (see requestWithAuth). */
  auth?: ServerAuth;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 64;
export const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
/** Response headers of a GET (SSE) stream must come quickly; the body may then idle forever. */
export const SSE_HEADERS_TIMEOUT_MS = 30_000;

/** An HTTP error status from the server: HTTP_ERROR with `status`, which callers (auto fallback) branch on. */
export function httpStatusError(status: number, message: string): GatewayError {
  return new GatewayError('HTTP_ERROR', message, { status });
}

/** scheme://host/path: drops userinfo, query and fragment, which may hold tokens. */
export function redactUrl(url: string | URL): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}

/** Lower-cased copy so our own headers replace configured ones instead of being sent twice. */
export function lowerCaseHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

export function headerValue(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Media type without parameters, lower case ('' if absent). */
export function mediaType(headers: Dispatcher.ResponseData['headers']): string {
  return (headerValue(headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A network failure as a GatewayError naming the method and the redacted URL. */
export function networkError(method: string, url: string, err: unknown): GatewayError {
  // A refusal requestWithAuth already explained (a login is needed) stays as it is.
  if (err instanceof GatewayError && err.status !== undefined) return err;
  const code = (err as { code?: unknown })?.code;
  let detail = describeError(err);
  if (typeof code === 'string' && !detail.includes(code)) detail = `${code}: ${detail}`;
  return new GatewayError('HTTP_ERROR', `${method} ${url} failed: ${detail}`, { cause: err });
}

/**
 * Drops a response body we will not read. An undici body destroyed before anything read it emits
 * 'error' (RequestAbortedError); without a listener that is an uncaught exception, which ended the
 * whole gateway (found by the transport contract suite). Every discard goes through here.
 */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Reads at most ~512 bytes of an error body for the message, then drops the rest. */
export async function bodyExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += Buffer.from(chunk as Uint8Array).toString('utf8');
      if (text.length >= 512) break;
    }
  } catch {
    // An unreadable error body leaves the status to speak for itself.
  }
  discardBody(body);
  return excerptOf(text);
}

/** The start of an error body as one short line (whitespace collapsed, at most 200 characters). */
export function excerptOf(text: string): string {
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** An error status as HTTP_ERROR: the method, the (redacted) URL, the status and the body's start. */
export function statusErrorOf(method: string, url: string, status: number, excerpt: string): GatewayError {
  return httpStatusError(status, `${method} ${url} → ${status}${excerpt ? ` ${excerpt}` : ''}`);
}

export async function statusError(method: string, url: string, res: Dispatcher.ResponseData): Promise<GatewayError> {
  return statusErrorOf(method, url, res.statusCode, await bodyExcerpt(res.body));
}

/** What a transport does with a message it refuses: fail our request it answers, or refuse the server's request. */
export interface Refusals {
  onerror(e: Error): void;
  /** The refused message answered our request `id`. */
  failRequest(id: JsonRpcId, e: Error): void;
  /** The refused message was a request of the server's. */
  refuseRequest(id: JsonRpcId, e: Error): void;
}

/**
 * Parses one JSON text into messages: an object is one message, an array (a 2025-03-26
 * batch) is several. Anything else is reported, not thrown, so one bad event never ends a stream.
 */
export function parseMessages(text: string, maxDepth: number | undefined, refusals: Refusals): JsonRpcMessage[] {
  const onerror = refusals.onerror;
  const parsed = parseJsonText(text, maxDepth ?? DEFAULT_MAX_DEPTH);
  if (!parsed.ok) {
    if (parsed.why === 'invalid-json') {
      const e = new GatewayError('PROTOCOL_ERROR', 'malformed JSON from server');
      onerror(e);
      // Text that reads as an answer to one of our requests but is not JSON fails that request now.
      const id = responseIdInHead(text.slice(0, 256));
      if (id !== undefined) refusals.failRequest(id, e);
      return [];
    }
    const e = new GatewayError('MESSAGE_TOO_DEEP', `the server sent a message nested deeper than ${maxDepth ?? DEFAULT_MAX_DEPTH} levels (limits.maxDepth); dropped`);
    onerror(e);
    if (parsed.id !== undefined) (parsed.method === undefined ? refusals.failRequest : refusals.refuseRequest)(parsed.id, e);
    return [];
  }
  const value = parsed.value;
  const items = Array.isArray(value) ? value : [value];
  const out: JsonRpcMessage[] = [];
  for (const item of items) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) out.push(item as JsonRpcMessage);
    else onerror(new GatewayError('PROTOCOL_ERROR', 'server sent a JSON value that is not a JSON-RPC message'));
  }
  return out;
}

/** A message from the server over limits.maxMessageBytes, which is dropped. */
export function messageTooLarge(maxBytes: number): GatewayError {
  return new GatewayError('MESSAGE_TOO_LARGE', `the server sent a message over the limit of ${maxBytes} bytes (limits.maxMessageBytes); dropped`);
}
