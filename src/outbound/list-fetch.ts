// Fetches every page of one list from a server, within bounds: items, bytes of the answers (as the
// transport read them: no item is serialised again) and time for the whole fetch. Over a bound the
// fetch stops at once (no further page is asked for) and nothing of it is returned. A page whose
// bytes equal the same page of the previous fetch keeps that fetch's parsed items: unchanged items
// stay the same objects, and so does an item equal to the one of its name before (list-intern.ts):
// what the catalog derived from them is reused (catalog/build.ts).

import type { JsonObject } from '../protocol/json.js';
import { createHash } from 'node:crypto';
import type { ServerConfig } from '../config/types.js';
import { GatewayError, RpcError, describeError } from '../errors.js';
import type { PeerAnswer } from '../jsonrpc/peer.js';
import { isRawResponse, parseRawResponse, type RawResponse } from '../jsonrpc/raw.js';
import { isErrorResponse, type JsonRpcResponse } from '../protocol/jsonrpc.js';
import { KINDS, type ListKind } from '../protocol/mcp.js';
import { Interner } from './list-intern.js';

/** What fetching needs of a connection: a Peer, or one that stamps each request first. */
export interface Requester {
  requestRaw(method: string, params: JsonObject | undefined, options: { timeoutMs?: number; raw: true }): Promise<PeerAnswer>;
}

/** The bounds of one fetch, and the config keys that set them (for the reason a server fails with). */
export interface ListBounds {
  maxItems: number;
  maxBytes: number;
  /** The whole fetch, every page. */
  timeoutMs: number;
  /** The longest one page may take (the server's request timeout); the whole fetch's rest caps it. */
  pageTimeoutMs: number;
  keys: { items: string; bytes: string; time: string };
}

export type ListBound = 'items' | 'bytes' | 'time';

/** The limits.* keys on lists, as the connection reads them (live: a reload applies to the next fetch). */
export interface ListLimits {
  maxListItems: number;
  maxListBytes: number;
  listFetchTimeoutMs: number;
  listRefetchIntervalMs: number;
  listRefetchMaxIntervalMs: number;
}

/** The config's defaults (config/schema.ts), for connections made without a config (tests). */
export const DEFAULT_LIST_LIMITS: ListLimits = { maxListItems: 20_000, maxListBytes: 32 * 1024 * 1024, listFetchTimeoutMs: 60_000, listRefetchIntervalMs: 1000, listRefetchMaxIntervalMs: 30_000 };

/** A server's bounds: its own `listLimits` where it sets them, else the gateway's. */
export function boundsFor(server: Pick<ServerConfig, 'listLimits'>, limits: ListLimits, pageTimeoutMs: number): ListBounds {
  const own = server.listLimits ?? {};
  return {
    maxItems: own.maxItems ?? limits.maxListItems,
    maxBytes: own.maxBytes ?? limits.maxListBytes,
    timeoutMs: own.fetchTimeoutMs ?? limits.listFetchTimeoutMs,
    pageTimeoutMs,
    keys: {
      items: own.maxItems !== undefined ? 'listLimits.maxItems' : 'limits.maxListItems',
      bytes: own.maxBytes !== undefined ? 'listLimits.maxBytes' : 'limits.maxListBytes',
      time: own.fetchTimeoutMs !== undefined ? 'listLimits.fetchTimeout' : 'limits.listFetchTimeout',
    },
  };
}

/** A fetch went over one of its bounds. Items and bytes: LIST_TOO_LARGE; time: SERVER_TIMEOUT. */
export class ListLimitError extends GatewayError {
  constructor(
    readonly kind: ListKind,
    readonly bound: ListBound,
    message: string,
    server: string,
  ) {
    super(bound === 'time' ? 'SERVER_TIMEOUT' : 'LIST_TOO_LARGE', message, { server });
    this.name = 'ListLimitError';
  }
}

/** One page as it was read, kept until the next fetch to tell an unchanged page at once. */
interface Page {
  digest: string;
  items: JsonObject[];
  next?: string;
}

/** What a fetch brings: the items, and its pages for the next fetch of the same list. */
export interface FetchedList {
  items: JsonObject[];
  pages: readonly Page[];
  bytes: number;
}

/** A page's fingerprint: its bytes without the response id (which differs every time). */
function digestOf(r: RawResponse): string {
  const hash = createHash('sha1');
  let offset = 0;
  for (const chunk of r.chunks) {
    const end = offset + chunk.length;
    const from = Math.max(offset, r.idStart);
    const to = Math.min(end, r.idEnd);
    if (from < to) {
      if (from > offset) hash.update(chunk.subarray(0, from - offset));
      if (to < end) hash.update(chunk.subarray(to - offset));
    } else hash.update(chunk);
    offset = end;
  }
  return hash.digest('base64');
}

/** A page's items (the previous fetch's where unchanged) and next cursor from its result. */
function pageOf(result: unknown, key: string, digest: string, interner: Interner): Page {
  // An array result has neither the key nor a cursor, as before.
  const r = result !== null && typeof result === 'object' ? (result as JsonObject) : {};
  const batch = r[key];
  const items: JsonObject[] = [];
  // An array item is kept as it was (the catalog drops what has no name).
  if (Array.isArray(batch)) for (const item of batch) if (item !== null && typeof item === 'object') items.push(interner.intern(item as JsonObject));
  const next = r.nextCursor;
  return typeof next === 'string' && next !== '' ? { digest, items, next } : { digest, items };
}

export async function fetchAll(peer: Requester, kind: ListKind, bounds: ListBounds, server: string, previous?: FetchedList): Promise<FetchedList> {
  const { method, key } = KINDS[kind];
  const over = (bound: ListBound, what: string) => new ListLimitError(kind, bound, `${method} ${what}`, server);
  const items: JsonObject[] = [];
  const pages: Page[] = [];
  const seen = new Set<string>();
  const deadline = Date.now() + bounds.timeoutMs;
  const interner = new Interner(previous?.items, KINDS[kind].nameField);
  let bytes = 0;
  // An empty page counts as one item: endless empty pages end like endless full ones.
  let counted = 0;
  let cursor: string | undefined;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw over('time', `took longer than ${bounds.keys.time} (${bounds.timeoutMs / 1000}s)`);
    const budgeted = left < bounds.pageTimeoutMs;
    let answer: PeerAnswer;
    try {
      answer = await peer.requestRaw(method, cursor === undefined ? undefined : { cursor }, { timeoutMs: budgeted ? left : bounds.pageTimeoutMs, raw: true });
    } catch (err) {
      if (budgeted && err instanceof GatewayError && err.code === 'SERVER_TIMEOUT') throw over('time', `took longer than ${bounds.keys.time} (${bounds.timeoutMs / 1000}s)`);
      throw new GatewayError('PROTOCOL_ERROR', `${method} failed: ${describeError(err)}`, { server, cause: err });
    }
    // A raw answer (bytes as read) is measured before it is parsed, and not parsed at all when its
    // bytes are the previous fetch's; one the transport had to parse (rare: not UTF-8, an unusual
    // shape) is measured by serialising it.
    const raw = isRawResponse(answer) ? answer : undefined;
    bytes += raw ? raw.byteLength : JSON.stringify(answer).length;
    if (bytes > bounds.maxBytes) throw over('bytes', `over ${bounds.keys.bytes} (${bounds.maxBytes} bytes)`);
    const digest = raw ? digestOf(raw) : '';
    const same = previous?.pages[pages.length];
    let memo: Page;
    if (raw && same?.digest === digest) memo = same;
    else {
      const response: JsonRpcResponse = raw ? parseRawResponse(raw) : (answer as JsonRpcResponse);
      if (isErrorResponse(response)) {
        // Templates are optional even for servers with resources; older servers answer -32601.
        if (kind === 'resourceTemplates') return { items, pages, bytes };
        throw new GatewayError('PROTOCOL_ERROR', `${method} failed: ${response.error.message}`, { server, cause: RpcError.of(response.error) });
      }
      memo = pageOf(response.result, key, digest, interner);
    }
    counted += Math.max(1, memo.items.length);
    if (counted > bounds.maxItems) throw over('items', `over ${bounds.keys.items} (${bounds.maxItems})`);
    pages.push(memo);
    for (const item of memo.items) items.push(item);
    // A cursor seen before would loop: the list ends there.
    if (memo.next === undefined || seen.has(memo.next)) return { items, pages, bytes };
    seen.add(memo.next);
    cursor = memo.next;
  }
}
