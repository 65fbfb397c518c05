// Passing a response on without parsing or decoding it: one scan of the server's bytes finds the
// top-level id (and checks the nesting bound and the object's shape on the way), and the client's
// id is spliced in its place; the bytes before and after it are written out as they came, never
// turned into a string. Decoding, re-encoding and the garbage of large strings were most of the
// gateway's CPU for large results; the scan skips string contents with indexOf (memchr), so a
// result made of text costs almost nothing.
//
// The scan accepts only what it can vouch for: valid UTF-8; one object; exactly one top-level "id"
// (a number or a string) and exactly one top-level "result" or "error"; balanced brackets; depth
// within the bound. Anything else returns undefined and the caller parses the text the ordinary way
// (which also replaces invalid UTF-8, as before). Scanning bytes for ASCII structure is sound in
// UTF-8: a multi-byte character never contains a byte below 0x80.

import { isUtf8 } from 'node:buffer';
import type { JsonRpcId, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { textOf } from './ndjson.js';

/**
 * Marks the records below as the gateway's own. Handlers return either a result object or a
 * RawResponse, and a server's result is a parsed JSON object: told apart by shape, a result that
 * carried these fields was sent to the client as the "answer" it spelled (past sanitize.results).
 * JSON cannot make a symbol key.
 */
const KIND = Symbol('switchboard.raw-kind');

/** A response kept as the bytes the server sent (the chunks they were read in), with where its id is. */
export interface RawResponse {
  readonly [KIND]: 'raw';
  readonly chunks: readonly Buffer[];
  readonly byteLength: number;
  readonly id: JsonRpcId;
  /** The id's value spans bytes [idStart, idEnd) of the message. */
  readonly idStart: number;
  readonly idEnd: number;
  readonly isError: boolean;
  /** Offset of the `{` opening the result when it is an object, else -1. */
  readonly resultStart: number;
  /**
   * The result object has no member of its own named `_meta` or `resultType` (and no member
   * name spelled with escapes, which could be either): members may be added after its `{`.
   */
  readonly resultPlain: boolean;
  /** The result object has no member at all (`{}`). */
  readonly resultEmpty: boolean;
}

/** A raw answer read the ordinary way, where a caller needs what the scan does not tell. Throws as JSON.parse does. */
export function parseRawResponse(r: RawResponse): JsonRpcResponse {
  return JSON.parse(textOf(r.chunks)) as JsonRpcResponse;
}

export function isRawResponse(value: unknown): value is RawResponse {
  return typeof value === 'object' && value !== null && (value as RawResponse)[KIND] === 'raw';
}

/** A complete response already serialised: a raw answer with the client's id spliced in. */
export interface SplicedResponse {
  readonly [KIND]: 'spliced';
  /** The message, in order (no newline or other framing): one string when small, else the server's bytes. */
  readonly chunks: readonly (Buffer | string)[];
  readonly byteLength: number;
  readonly id: JsonRpcId;
  /** A JSON-RPC error response (metrics and traces count it as one). */
  readonly isError?: boolean;
}

export function isSplicedResponse(value: unknown): value is SplicedResponse {
  return typeof value === 'object' && value !== null && (value as SplicedResponse)[KIND] === 'spliced';
}

/**
 * Up to this size an answer is spliced as one string (raw-splice.ts); past it the scan checks that
 * the bytes it vouches for are UTF-8, as they will be passed on unread.
 */
export const SPLICE_AS_TEXT_BYTES = 16 * 1024;

/** A spliced response from its parts (raw-splice.ts builds them). */
export function splicedResponse(chunks: readonly (Buffer | string)[], byteLength: number, id: JsonRpcId, isError: boolean): SplicedResponse {
  return { [KIND]: 'spliced', chunks, byteLength, id, isError };
}

/** Whether the chunks contain `needle` (ASCII), also across a boundary between two chunks. */
export function chunksInclude(chunks: readonly Buffer[], needle: string): boolean {
  for (let k = 0; k < chunks.length; k++) {
    if (chunks[k]!.includes(needle)) return true;
    if (k + 1 < chunks.length) {
      const seam = Buffer.concat([chunks[k]!.subarray(-(needle.length - 1)), chunks[k + 1]!.subarray(0, needle.length - 1)]);
      if (seam.includes(needle)) return true;
    }
  }
  return false;
}

/**
 * Whether a message may hold a member whose name ends in `uri` or `Uri` (a link, an embedded
 * resource, a UI pointer): with neither `ri"` nor an escape (`\u`, which could spell any name)
 * in its bytes, it holds none, and needs no parsing to be judged.
 */
export function mayNameUri(chunks: readonly Buffer[]): boolean {
  return chunksInclude(chunks, 'ri"') || chunksInclude(chunks, '\\u');
}

const WS = (c: number | undefined) => c === 32 || c === 10 || c === 13 || c === 9;
const QUOTE = 34;
const BACKSLASH = 92;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Random access to a message split in chunks, by offset from its start. The scan walks chunk by
 * chunk; this serves the few reads that look back or ahead (keys, the id, escapes).
 */
class Bytes {
  readonly starts: number[] = [];
  readonly length: number;

  constructor(readonly chunks: readonly Buffer[]) {
    let at = 0;
    for (const c of chunks) {
      this.starts.push(at);
      at += c.length;
    }
    this.length = at;
  }

  /** Index of the chunk holding offset `g` (the last chunk for g past the end). */
  chunkAt(g: number): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= g) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  at(g: number): number | undefined {
    if (g < 0 || g >= this.length) return undefined;
    if (this.chunks.length === 1) return this.chunks[0]![g];
    const k = this.chunkAt(g);
    return this.chunks[k]![g - this.starts[k]!];
  }

  /**
   * Offset of the next `byte` at or after `from`, or -1. The first bytes are looked at here: most
   * strings of a message are short, and Buffer.indexOf (memchr) costs a call into C++ each time;
   * past them it wins by far.
   */
  indexOf(byte: number, from: number): number {
    for (let k = this.chunkAt(from); k < this.chunks.length; k++) {
      const chunk = this.chunks[k]!;
      let i = Math.max(0, from - this.starts[k]!);
      const near = Math.min(chunk.length, i + 48);
      for (; i < near; i++) if (chunk[i] === byte) return this.starts[k]! + i;
      const local = i < chunk.length ? chunk.indexOf(byte, i) : -1;
      if (local !== -1) return this.starts[k]! + local;
    }
    return -1;
  }

  /** Whether bytes [from, to) spell `word` (ASCII). */
  spells(from: number, to: number, word: string): boolean {
    if (to - from !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (this.at(from + k) !== word.charCodeAt(k)) return false;
    return true;
  }

  /** The value of a number token: digits alone are read here, anything else (sign, fraction, exponent) by JSON.parse. */
  numberValue(from: number, to: number): number {
    if (to - from > 15) return JSON.parse(this.text(from, to, 'latin1')) as number;
    let n = 0;
    for (let g = from; g < to; g++) {
      const d = this.at(g)! - 48;
      if (d < 0 || d > 9) return JSON.parse(this.text(from, to, 'latin1')) as number;
      n = n * 10 + d;
    }
    return n;
  }

  text(from: number, to: number, encoding: 'utf8' | 'latin1'): string {
    const k = this.chunkAt(from);
    const chunk = this.chunks[k]!;
    const start = this.starts[k]!;
    if (to - start <= chunk.length) return chunk.toString(encoding, from - start, to - start);
    let s = '';
    for (let g = from; g < to; g++) s += String.fromCharCode(this.at(g)!);
    return encoding === 'latin1' ? s : Buffer.from(s, 'latin1').toString('utf8');
  }

  /** Offset of the quote closing the string that opens at `open`, or -1. */
  stringEnd(open: number): number {
    let at = open;
    for (;;) {
      at = this.indexOf(QUOTE, at + 1);
      if (at === -1) return -1;
      let backslashes = 0;
      for (let j = at - 1; j > open && this.at(j) === BACKSLASH; j--) backslashes++;
      if ((backslashes & 1) === 0) return at;
    }
  }

  skipSpace(g: number): number {
    while (g < this.length && WS(this.at(g))) g++;
    return g;
  }

  /** End of a JSON number token starting at `g` (exclusive), or -1 if there is none. */
  numberEnd(g: number): number {
    let j = g;
    let digitsOnly = true;
    for (; j < this.length; j++) {
      const c = this.at(j)!;
      if (c >= 48 && c <= 57) continue;
      // '-', '+', '.', 'e', 'E': the token is checked whole below
      if (c === 45 || c === 43 || c === 46 || c === 101 || c === 69) digitsOnly = false;
      else break;
    }
    if (j === g) return -1;
    // Plain digits (our own ids) are a number unless they start with a superfluous 0.
    if (digitsOnly) return this.at(g) !== 48 || j - g === 1 ? j : -1;
    return NUMBER.test(this.text(g, j, 'latin1')) ? j : -1;
  }
}

/**
 * Scans a JSON-RPC response's bytes (one Buffer, or the chunks they were read in). Returns where
 * its id is, or undefined when they are not a plain response the scan can vouch for (the caller
 * then parses them), or 'too-deep'.
 */
export function scanResponse(input: Buffer | readonly Buffer[], maxDepth: number): RawResponse | 'too-deep' | undefined {
  const b = new Bytes(Buffer.isBuffer(input) ? [input] : input);
  let g = b.skipSpace(0);
  if (b.at(g) !== 123 /* { */) return undefined;
  let depth = 0;
  let expectKey = false;
  let ids = 0;
  let bodies = 0;
  let isError = false;
  let idStart = -1;
  let idEnd = -1;
  let closed = -1;
  // The result object's own member names (depth 2 inside it) are read too, for dressing (raw-splice.ts).
  let resultStart = -1;
  let inResult = false;
  let expectResultKey = false;
  let resultPlain = true;
  // The hot loop walks each chunk with a local index; a string (found with indexOf) may end in a
  // later chunk, so the walk resumes from the offset after it.
  scan: for (let k = b.chunkAt(g); k < b.chunks.length; k = b.chunkAt(g)) {
    const chunk = b.chunks[k]!;
    const base = b.starts[k]!;
    let i = g - base;
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === QUOTE) {
        const open = base + i;
        const end = b.stringEnd(open);
        if (end === -1) return undefined;
        g = end + 1;
        if (depth === 1 && expectKey) {
          expectKey = false;
          // "\u0069d" is "id" to a parser: a key spelled with escapes could smuggle a second id.
          // No key of ours is this long, even spelled with escapes: skip it unread.
          if (end - open > 40) continue scan;
          for (let q = open + 1; q < end; q++) if (b.at(q) === BACKSLASH) return undefined;
          let j = b.skipSpace(end + 1);
          if (b.at(j) !== 58 /* : */) return undefined;
          if (b.spells(open + 1, end, 'id')) {
            j = b.skipSpace(j + 1);
            const valueEnd = b.at(j) === QUOTE ? b.stringEnd(j) + 1 : b.numberEnd(j);
            if (valueEnd <= j) return undefined;
            ids++;
            idStart = j;
            idEnd = valueEnd;
            g = valueEnd;
          } else if (b.spells(open + 1, end, 'result')) {
            bodies++;
            j = b.skipSpace(j + 1);
            if (b.at(j) === 123) resultStart = j;
          } else if (b.spells(open + 1, end, 'error')) {
            bodies++;
            isError = true;
          }
        }
        if (depth === 2 && expectResultKey) {
          expectResultKey = false;
          if (b.spells(open + 1, end, '_meta') || b.spells(open + 1, end, 'resultType')) resultPlain = false;
          for (let q = open + 1; q < end && resultPlain; q++) if (b.at(q) === BACKSLASH) resultPlain = false;
        }
        continue scan;
      }
      if (c === 123 || c === 91 /* [ */) {
        if (++depth > maxDepth) return 'too-deep';
        expectKey = c === 123 && depth === 1;
        if (base + i === resultStart) inResult = expectResultKey = true;
      } else if (c === 125 || c === 93) {
        if (--depth === 0) {
          closed = base + i;
          break scan;
        }
        if (depth === 1) inResult = expectResultKey = false;
        if (depth < 0) return undefined;
      } else if (c === 44 /* , */) {
        if (depth === 1) expectKey = true;
        else if (depth === 2 && inResult) expectResultKey = true;
      }
    }
    g = base + chunk.length;
    if (g >= b.length) break;
  }
  // Only whitespace may follow the object.
  if (closed === -1 || b.skipSpace(closed + 1) !== b.length) return undefined;
  if (ids !== 1 || bodies !== 1) return undefined;
  let id: JsonRpcId;
  try {
    // Our own ids are integers: read without a parse.
    id = b.at(idStart) === QUOTE ? (JSON.parse(b.text(idStart, idEnd, 'utf8')) as string) : b.numberValue(idStart, idEnd);
  } catch {
    return undefined;
  }
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  // Last, because it reads every byte: what we pass on as bytes must be UTF-8 (JSON's encoding),
  // as the parsed path guarantees by replacing what is not. A character split between two reads
  // is checked whole, across the seam. A small answer is decoded when spliced (spliceId), which
  // replaces the same way, so it needs no check.
  if (b.length > SPLICE_AS_TEXT_BYTES && !isUtf8Chunks(b.chunks)) return undefined;
  const resultEmpty = resultStart !== -1 && b.at(b.skipSpace(resultStart + 1)) === 125;
  return { [KIND]: 'raw', chunks: b.chunks, byteLength: b.length, id, idStart, idEnd, isError, resultStart, resultPlain, resultEmpty };
}

/** Bytes in the UTF-8 sequence a byte opens (0 for a continuation byte). */
const sequenceLength = (byte: number) => (byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 0);

/** Where a sequence cut short by the end of `c` starts (c.length if none is). */
function incompleteTail(c: Buffer): number {
  for (let j = c.length - 1; j >= Math.max(0, c.length - 3); j--) {
    const byte = c[j]!;
    if ((byte & 0xc0) === 0x80) continue;
    const n = sequenceLength(byte);
    return n > 1 && j + n > c.length ? j : c.length;
  }
  return c.length;
}

/** Whether chunks are UTF-8 taken together: each is checked whole but for a character split across a seam, checked on its own. */
function isUtf8Chunks(chunks: readonly Buffer[]): boolean {
  if (chunks.length === 1) return isUtf8(chunks[0]!);
  let carry: Buffer | undefined;
  for (let k = 0; k < chunks.length; k++) {
    let c = chunks[k]!;
    if (carry !== undefined) {
      const need = sequenceLength(carry[0]!) - carry.length;
      // A character spread over three chunks: rare enough to check the plain way.
      if (c.length < need) return isUtf8(Buffer.concat(chunks as Buffer[]));
      if (!isUtf8(Buffer.concat([carry, c.subarray(0, need)]))) return false;
      c = c.subarray(need);
      carry = undefined;
    }
    if (k < chunks.length - 1) {
      const cut = incompleteTail(c);
      if (cut < c.length) {
        carry = c.subarray(cut);
        c = c.subarray(0, cut);
      }
    }
    if (!isUtf8(c)) return false;
  }
  return true;
}
