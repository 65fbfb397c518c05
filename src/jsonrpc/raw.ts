// Passing a response on without parsing or decoding it: one scan of the server's bytes checks that
// they are a JSON-RPC response the gateway can vouch for and finds the top-level id, and the
// client's id is spliced in its place; the bytes before and after it are written out as they came,
// never turned into a string. Decoding, re-encoding and the garbage of large strings were most of
// the gateway's CPU for large results; string contents are checked 16 bytes at a time
// (json-strings.ts), so a result made of text costs little.
//
// The scan vouches only for exactly what the parsed path would send: one object with the members
// "jsonrpc" ("2.0"), "id" (a string or a number) and one of "result" (an object) or "error" (an
// object of "code" (a number), "message" (a string) and "data"), each once and nothing else, spelled
// without escapes; every value valid JSON (RFC 8259: strings without raw control bytes and with
// valid escapes, the number grammar, the literals, no trailing commas); only whitespace after it;
// depth within the bound; UTF-8. Anything else (a "method" beside a "result", which a client would
// read as a request of the server's) returns undefined: the caller parses the text the ordinary way,
// and that path's checks apply.

import type { JsonRpcId, JsonRpcResponse } from '../protocol/jsonrpc.js';
import { STRING_SPECIAL, forgetWindow } from './json-strings.js';
import { textOf } from './ndjson.js';
import { Bytes, isUtf8Chunks } from './raw-bytes.js';

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

const QUOTE = 34;

// What the scan expects next (RFC 8259's grammar, one state per place in it).
const VALUE = 0; //        after ':', or ',' in an array
const VALUE_OR_END = 1; // after '['
const KEY = 2; //          after ',' in an object
const KEY_OR_END = 3; //   after '{'
const COLON = 4; //        after a key
const NEXT = 5; //         after a value: ',' or the end of its container
const OBJECT = 1;
const ARRAY = 2;

// Top-level members (bits), and the error object's.
const JSONRPC = 1;
const ID = 2;
const RESULT = 4;
const ERROR = 8;
const CODE = 1;
const MESSAGE = 2;
const DATA = 4;

// Kinds of value, for the members that take only some.
const V_OBJECT = 1;
const V_ARRAY = 2;
const V_STRING = 4;
const V_NUMBER = 8;
const V_LITERAL = 16;
/** What each top-level member's value may be; then what each of the error object's may be. */
const TAKES: Record<number, number> = { [JSONRPC]: V_STRING, [ID]: V_STRING | V_NUMBER, [RESULT]: V_OBJECT, [ERROR]: V_OBJECT };
const ERROR_TAKES: Record<number, number> = { [CODE]: V_NUMBER, [MESSAGE]: V_STRING, [DATA]: 31 };

/** Which container each depth is: reused by every scan (scans never overlap). */
let kinds = new Uint8Array(1024);

/**
 * Scans a JSON-RPC response's bytes (one Buffer, or the chunks they were read in). Returns where
 * its id is, or undefined when they are not a response the scan can vouch for (the caller then
 * parses them), or 'too-deep'.
 */
export function scanResponse(input: Buffer | readonly Buffer[], maxDepth: number): RawResponse | 'too-deep' | undefined {
  forgetWindow();
  const b = new Bytes(Buffer.isBuffer(input) ? [input] : input);
  if (kinds.length < maxDepth + 2) kinds = new Uint8Array(maxDepth + 2);
  let g = b.skipSpace(0);
  if (b.at(g) !== 123 /* { */) return undefined;
  let depth = 0;
  let state = VALUE;
  let seen = 0; //        top-level members so far
  let member = 0; //      the top-level member whose value comes next (or is open)
  let errorSeen = 0;
  let errorMember = 0;
  let idStart = -1;
  let idEnd = -1;
  let closed = -1;
  let resultStart = -1;
  let resultPlain = true;
  for (;;) {
    if (g >= b.length) return undefined; // the top-level object never closed
    const k = b.chunkAt(g);
    const chunk = b.chunks[k]!;
    const base = b.starts[k]!;
    let i = g - base;
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 32 || c === 10 || c === 13 || c === 9) continue;
      if (c === QUOTE) {
        const open = base + i;
        const isKey = state === KEY || state === KEY_OR_END;
        if (!isKey && !valueMayStart(V_STRING, state, depth, member, errorMember)) return undefined;
        // A short string of plain bytes (most keys and small values) is read here; anything else
        // (an escape, a control byte, a long or cut string) by stringEnd, which checks it.
        let j = i + 1;
        const near = Math.min(chunk.length, j + 64);
        while (j < near && STRING_SPECIAL[chunk[j]!] === 0) j++;
        const plain = j < near && chunk[j] === QUOTE;
        // Else plain up to j: stringEnd goes on from there.
        const end = plain ? base + j : b.stringEnd(base + j);
        if (end === -1) return undefined;
        g = end + 1;
        if (isKey) {
          state = COLON;
          // "\u0069d" is "id" to a parser: a member spelled with escapes could smuggle a second id.
          // (Names that matter are short: a long one is never read, whatever it spells.)
          if (depth === 1 || (depth === 2 && (member === ERROR || resultPlain))) {
            const named = plain || (end - open <= 16 && !b.hasBackslash(open + 1, end));
            if (depth === 1) {
              const m = named ? topMemberAt(b, open + 1, end) : 0;
              if (m === 0 || (seen & m) !== 0) return undefined;
              seen |= member = m;
            } else if (member === ERROR) {
              const m = named ? errorMemberAt(b, open + 1, end) : 0;
              if (m === 0 || (errorSeen & m) !== 0) return undefined;
              errorSeen |= errorMember = m;
            } else if (!named || b.spells(open + 1, end, '_meta') || b.spells(open + 1, end, 'resultType')) {
              // The result's own members, for dressing (raw-splice.ts): neither of these, nor escaped.
              resultPlain = false;
            }
          }
        } else {
          state = NEXT;
          if (depth === 1 && member === ID) {
            idStart = open;
            idEnd = g;
          } else if (depth === 1 && member === JSONRPC && !b.spells(open, g, '"2.0"')) return undefined;
        }
        if (g >= base + chunk.length) break;
        i = g - base - 1;
        continue;
      }
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (!valueMayStart(c === 123 ? V_OBJECT : V_ARRAY, state, depth, member, errorMember)) return undefined;
        if (depth === 1 && member === RESULT) resultStart = base + i;
        if (++depth > maxDepth) return 'too-deep';
        kinds[depth] = c === 123 ? OBJECT : ARRAY;
        state = c === 123 ? KEY_OR_END : VALUE_OR_END;
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        const kind = c === 125 ? OBJECT : ARRAY;
        if (kinds[depth] !== kind || (state !== NEXT && state !== (kind === OBJECT ? KEY_OR_END : VALUE_OR_END))) return undefined;
        state = NEXT;
        if (--depth === 0) {
          closed = base + i;
          break;
        }
      } else if (c === 44 /* , */) {
        if (state !== NEXT) return undefined;
        state = kinds[depth] === OBJECT ? KEY : VALUE;
      } else if (c === 58 /* : */) {
        if (state !== COLON) return undefined;
        state = VALUE;
      } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
        if (!valueMayStart(V_NUMBER, state, depth, member, errorMember)) return undefined;
        const end = b.numberEnd(base + i);
        if (end === -1) return undefined;
        if (depth === 1) {
          idStart = base + i;
          idEnd = end;
        }
        g = end;
        state = NEXT;
        if (g >= base + chunk.length) break;
        i = g - base - 1;
      } else if (c === 116 /* t */ || c === 102 /* f */ || c === 110 /* n */) {
        const word = c === 116 ? 'true' : c === 102 ? 'false' : 'null';
        if (!valueMayStart(V_LITERAL, state, depth, member, errorMember) || !b.spells(base + i, base + i + word.length, word)) return undefined;
        g = base + i + word.length;
        state = NEXT;
        if (g >= base + chunk.length) break;
        i = g - base - 1;
      } else return undefined;
    }
    if (closed !== -1) break;
    // Out of the chunk: past its end, or a token ran on into the next one (g is after it).
    if (i === chunk.length) g = base + chunk.length;
  }
  // Only whitespace may follow the object.
  if (b.skipSpace(closed + 1) !== b.length) return undefined;
  const body = seen & (RESULT | ERROR);
  if ((seen & (JSONRPC | ID)) !== (JSONRPC | ID) || (body !== RESULT && body !== ERROR)) return undefined;
  if (body === ERROR && (errorSeen & (CODE | MESSAGE)) !== (CODE | MESSAGE)) return undefined;
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
  return { [KIND]: 'raw', chunks: b.chunks, byteLength: b.length, id, idStart, idEnd, isError: body === ERROR, resultStart, resultPlain, resultEmpty };
}

/** Whether a value of `kind` may start here: the grammar's state, and the members' rules. */
function valueMayStart(kind: number, state: number, depth: number, member: number, errorMember: number): boolean {
  if (state !== VALUE && state !== VALUE_OR_END) return false;
  if (depth === 1) return (TAKES[member]! & kind) !== 0;
  if (depth === 2 && member === ERROR) return (ERROR_TAKES[errorMember]! & kind) !== 0;
  return depth > 0 || kind === V_OBJECT;
}

/** The top-level member bytes [from, to) name (spelled without escapes), or 0. */
function topMemberAt(b: Bytes, from: number, to: number): number {
  const n = to - from;
  if (n === 2) return b.spells(from, to, 'id') ? ID : 0;
  if (n === 6) return b.spells(from, to, 'result') ? RESULT : 0;
  if (n === 5) return b.spells(from, to, 'error') ? ERROR : 0;
  return n === 7 && b.spells(from, to, 'jsonrpc') ? JSONRPC : 0;
}

/** The member of the error object bytes [from, to) name, or 0. */
function errorMemberAt(b: Bytes, from: number, to: number): number {
  const n = to - from;
  if (n === 4) return b.spells(from, to, 'code') ? CODE : b.spells(from, to, 'data') ? DATA : 0;
  return n === 7 && b.spells(from, to, 'message') ? MESSAGE : 0;
}
