// What both outbound HTTP transports share: options, the status-carrying error, URL redaction,
// and bounded readers for SSE and JSON bodies. Invariants: no reader ever buffers more than
// maxMessageBytes of one message, and no error message carries a query string or credentials.

import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import { GatewayError, describeError } from '../errors.js';
import type { ServerAuth } from './auth/types.js';
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
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export async function statusError(
  method: string,
  url: string,
  res: Dispatcher.ResponseData,
): Promise<GatewayError> {
  const excerpt = await bodyExcerpt(res.body);
  return httpStatusError(res.statusCode, `${method} ${url} → ${res.statusCode}${excerpt ? ` ${excerpt}` : ''}`);
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
 * Parses one JSON text into messages: an object is one message, an array (a legacy 2025-03-26
 * batch) is several. Anything else is reported, not thrown, so one bad event never ends a stream.
 */
export function parseMessages(text: string, maxDepth: number | undefined, refusals: Refusals): JsonRpcMessage[] {
  const onerror = refusals.onerror;
  const parsed = parseJsonText(text, maxDepth ?? DEFAULT_MAX_DEPTH);
  if (!parsed.ok) {
    if (parsed.why === 'invalid-json') {
      onerror(new GatewayError('PROTOCOL_ERROR', 'malformed JSON from server'));
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

/** Reads a JSON body up to maxBytes; past that it aborts the body and returns undefined. */
export async function readJsonBody(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | undefined,
  maxBytes: number,
  onerror: (e: Error) => void,
): Promise<string | undefined> {
  const tooBig = () => onerror(messageTooLarge(maxBytes));
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    discardBody(body);
    tooBig();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > maxBytes) {
      discardBody(body);
      tooBig();
      return undefined;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface SseHandlers {
  /** A complete event within the size limit (data may be empty: priming events). */
  onEvent(event: EventSourceMessage): void;
  onRetry?(ms: number): void;
  onerror(err: Error): void;
  /**
   * An event over the limit was dropped (default: onerror). `head` is the start of its data, when
   * it could be kept: enough to read the id of the response it was (responseIdInHead).
   */
  onTooLarge?(err: Error, head: string | undefined): void;
}

/** How much of an event's beginning is kept, to tell which response an oversized one was. */
const EVENT_HEAD_CHARS = 256;

/** The data of an SSE event's first lines: the text after `data:` prefixes, lines joined. */
function dataOf(eventText: string): string {
  return eventText
    .split(/\r\n|\r|\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

/**
 * Feeds a response body through eventsource-parser until it ends; throws if the body errors
 * (abort, reset). An event larger than maxChars is reported and skipped: the parser stops at its
 * buffer limit, we discard input up to the next blank line, then resume with a fresh parser.
 */
export async function consumeSse(
  body: AsyncIterable<unknown>,
  maxChars: number,
  handlers: SseHandlers,
): Promise<void> {
  const tooBig = (head: string | undefined) => {
    const err = new GatewayError('MESSAGE_TOO_LARGE', `the server sent an SSE event over the limit of ${maxChars} bytes (limits.maxMessageBytes); dropped`);
    if (handlers.onTooLarge) handlers.onTooLarge(err, head);
    else handlers.onerror(err);
  };
  let skipping = false;
  // The beginning of the event in progress (since the last blank line), kept short.
  let eventHead = '';
  let overflowed = false;
  const parser = createParser({
    maxBufferSize: maxChars,
    onEvent: (ev) => {
      // A whole oversized event can arrive inside one chunk, before the buffer check runs.
      if (ev.data.length > maxChars) tooBig(ev.data.slice(0, EVENT_HEAD_CHARS));
      else handlers.onEvent(ev);
    },
    onRetry: (ms) => handlers.onRetry?.(ms),
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') {
        skipping = true;
        // Reported once this chunk is counted into eventHead: the event's start may be in it.
        overflowed = true;
      }
      // Unknown fields and bad retry values are ignored, as EventSource does.
    },
  });
  // Skip-mode scanner state: are we at the start of a line, and was the last char a CR?
  let atLineStart = false;
  let pendingCr = false;
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    let text = decoder.decode(chunk as Uint8Array, { stream: true });
    if (skipping) {
      const end = findEventEnd(text, atLineStart, pendingCr);
      if (end.index < 0) {
        atLineStart = end.atLineStart;
        pendingCr = end.pendingCr;
        continue;
      }
      skipping = false;
      parser.reset();
      text = text.slice(end.index);
    }
    parser.feed(text);
    const boundary = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\r\n\r\n'));
    if (boundary >= 0) eventHead = text.slice(boundary).replace(/^[\r\n]+/, '').slice(0, EVENT_HEAD_CHARS);
    else if (eventHead.length < EVENT_HEAD_CHARS) eventHead = (eventHead + text).slice(0, EVENT_HEAD_CHARS);
    if (overflowed) {
      overflowed = false;
      tooBig(dataOf(eventHead) || undefined);
    }
    if (skipping) {
      atLineStart = text.endsWith('\n') || text.endsWith('\r');
      pendingCr = text.endsWith('\r');
    }
  }
}

/** Index just past the blank line that ends the current event, or -1 with the carried state. */
function findEventEnd(
  text: string,
  atLineStart: boolean,
  pendingCr: boolean,
): { index: number; atLineStart: boolean; pendingCr: boolean } {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 && pendingCr) {
      pendingCr = false; // the LF of a CRLF: same terminator
      continue;
    }
    if (c === 10 || c === 13) {
      if (atLineStart) return { index: i + 1, atLineStart: true, pendingCr: c === 13 };
      atLineStart = true;
      pendingCr = c === 13;
    } else {
      atLineStart = false;
      pendingCr = false;
    }
  }
  return { index: -1, atLineStart, pendingCr };
}
