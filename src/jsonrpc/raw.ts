// Passing a response on without parsing it: one scan of the text finds the top-level id (and
// checks the nesting bound and the object's shape on the way), and the client's id is spliced in
// its place. JSON.parse + JSON.stringify of a large tool result was a third of the gateway's CPU;
// the scan skips string contents with indexOf, so a result made of text costs almost nothing.
//
// The scan accepts only what it can vouch for: one object; exactly one top-level "id" (a number
// or a string) and exactly one top-level "result" or "error"; balanced brackets; depth within the
// bound. Anything else returns undefined and the caller parses the text the ordinary way.

import type { JsonRpcId } from '../protocol/jsonrpc.js';

/** A response kept as the text the server sent, with where its id is. */
export interface RawResponse {
  readonly raw: string;
  readonly id: JsonRpcId;
  /** The id's value spans [idStart, idEnd) of `raw`. */
  readonly idStart: number;
  readonly idEnd: number;
  readonly isError: boolean;
}

export function isRawResponse(value: unknown): value is RawResponse {
  return typeof value === 'object' && value !== null && typeof (value as RawResponse).raw === 'string' && typeof (value as RawResponse).idStart === 'number';
}

/** The same response with `id` in place of the server's: valid JSON whenever `raw` was. */
export function spliceId(r: RawResponse, id: JsonRpcId): string {
  return r.raw.slice(0, r.idStart) + JSON.stringify(id) + r.raw.slice(r.idEnd);
}

const WS = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** Index of the quote closing the string that opens at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    let backslashes = 0;
    for (let j = at - 1; j > open && text.charCodeAt(j) === 92; j--) backslashes++;
    if ((backslashes & 1) === 0) return at;
  }
}

/** End of a number token starting at `i` (exclusive), or -1 if there is none. */
function numberEnd(text: string, i: number): number {
  const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  m.lastIndex = i;
  return m.exec(text) ? m.lastIndex : -1;
}

/**
 * Scans a JSON-RPC response text. Returns where its id is, or undefined when the text is not a
 * plain response the scan can vouch for (the caller then parses it), or 'too-deep'.
 */
export function scanResponse(text: string, maxDepth: number): RawResponse | 'too-deep' | undefined {
  let i = 0;
  const n = text.length;
  while (i < n && WS(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 123 /* { */) return undefined;
  let depth = 0;
  let expectKey = false;
  let ids = 0;
  let bodies = 0;
  let isError = false;
  let idStart = -1;
  let idEnd = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (end === -1) return undefined;
      if (depth === 1 && expectKey) {
        expectKey = false;
        const key = text.slice(i + 1, end);
        // "\u0069d" is "id" to a parser: a key spelled with escapes could smuggle a second id.
        if (key.includes('\\')) return undefined;
        let j = end + 1;
        while (j < n && WS(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) !== 58 /* : */) return undefined;
        if (key === 'id') {
          j++;
          while (j < n && WS(text.charCodeAt(j))) j++;
          const valueEnd = text.charCodeAt(j) === 34 ? stringEnd(text, j) + 1 : numberEnd(text, j);
          if (valueEnd <= j) return undefined;
          ids++;
          idStart = j;
          idEnd = valueEnd;
          i = valueEnd - 1;
          continue;
        }
        if (key === 'result' || key === 'error') {
          bodies++;
          isError = key === 'error';
        }
      }
      i = end;
    } else if (c === 123 || c === 91 /* [ */) {
      if (++depth > maxDepth) return 'too-deep';
      expectKey = c === 123 && depth === 1;
    } else if (c === 125 || c === 93) {
      if (--depth === 0) {
        // Only whitespace may follow the object.
        for (let j = i + 1; j < n; j++) if (!WS(text.charCodeAt(j))) return undefined;
        break;
      }
      if (depth < 0) return undefined;
    } else if (c === 44 /* , */ && depth === 1) {
      expectKey = true;
    }
  }
  if (depth !== 0 || ids !== 1 || bodies !== 1) return undefined;
  const token = text.slice(idStart, idEnd);
  let id: JsonRpcId;
  try {
    id = JSON.parse(token) as JsonRpcId;
  } catch {
    return undefined;
  }
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  return { raw: text, id, idStart, idEnd, isError };
}

/** A complete response already serialised (a raw answer with the client's id spliced in). */
export interface TextResponse {
  readonly text: string;
  readonly id: JsonRpcId;
  /** A JSON-RPC error response (metrics and traces count it as one). */
  readonly isError?: boolean;
}

export function isTextResponse(value: unknown): value is TextResponse {
  return typeof value === 'object' && value !== null && typeof (value as TextResponse).text === 'string' && !('jsonrpc' in value);
}
