// Opaque, tamper-evident pagination cursors for the gateway's merged lists, and keyset paging.
// Invariants: decode never throws and accepts only strings encode produced with the same secret
// (byte-for-byte, canonical base64url); a cursor is bound to its list kind.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { LIST_KINDS, type ListKind } from '../protocol/mcp.js';

export type { ListKind };

/**
 * What a cursor pages: a catalog list; the skills the gateway merges per skills/list (SEP-2640),
 * which are not in the catalog snapshot but page the same way; or one server's directory read
 * (resources/directory/read), whose cursor carries that server's own.
 */
export type CursorKind = ListKind | 'skills' | 'directory';

export interface CursorState {
  kind: CursorKind;
  /** The last key returned on the previous page. */
  afterKey: string;
  /** Index just after afterKey when issued; the fallback when afterKey has vanished. */
  offset: number;
}

export interface CursorCodec {
  encode(state: CursorState): string;
  /**
   * undefined for anything not produced by `encode` with this secret, and, when `expectedKind`
   * is given, for a cursor of another kind (the caller answers JSON-RPC -32602 either way).
   * Accepts `unknown` because `params.cursor` comes straight from the client.
   */
  decode(cursor: unknown, expectedKind?: CursorKind): CursorState | undefined;
}

/*
 * Wire format, before base64url (no padding):
 *   version u8 (=1) | kind u8 | flags u8 | offset u32 BE | key bytes | mac (16 bytes)
 * flags bit 0: key is UTF-16LE (only for keys with lone surrogates, which UTF-8 cannot carry).
 * flags bit 1: key omitted (longer than MAX_KEY_BYTES); paging then falls back to the offset.
 * mac = HMAC-SHA256(secret, LABEL || everything before the mac), first 16 bytes.
 */
const VERSION = 1;
/** The kind byte of the wire format is the position in this list: never reorder it, only append. */
const KINDS: readonly CursorKind[] = [...LIST_KINDS, 'skills', 'directory'];
const FLAG_UTF16 = 1;
const FLAG_NO_KEY = 2;
const HEADER_BYTES = 7;
const MAC_BYTES = 16;
/** Keeps cursors short enough for any client; exposed names are ≤128 chars, URIs rarely long. */
const MAX_KEY_BYTES = 2048;
const MAX_CURSOR_CHARS = Math.ceil(((HEADER_BYTES + MAX_KEY_BYTES + MAC_BYTES) * 4) / 3);
const MIN_CURSOR_CHARS = Math.ceil(((HEADER_BYTES + MAC_BYTES) * 4) / 3);
// Domain separation: the same secret used for anything else can never mint a cursor.
const LABEL = Buffer.from('switchboard/cursor/v1\0');
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

let processSecret: Buffer | undefined;

/**
 * `secret` defaults to 32 random bytes shared by every codec of this process, so cursors do not
 * survive a restart (clients then get -32602 and restart paging). A given secret must be ≥16 bytes.
 */
export function createCursorCodec(secret?: Uint8Array): CursorCodec {
  let key: Buffer;
  if (secret === undefined) key = processSecret ??= randomBytes(32);
  else if (secret.length < 16) throw new RangeError('cursor secret must be at least 16 bytes');
  else key = Buffer.from(secret); // a copy: later changes to the caller's array must not matter

  const mac = (body: Buffer): Buffer => createHmac('sha256', key).update(LABEL).update(body).digest().subarray(0, MAC_BYTES);

  return {
    encode(state) {
      const kind = KINDS.indexOf(state.kind);
      if (kind < 0) throw new TypeError(`unknown list kind: ${String(state.kind)}`);
      if (!Number.isInteger(state.offset) || state.offset < 0 || state.offset > 0xffffffff) {
        throw new RangeError(`cursor offset out of range: ${state.offset}`);
      }
      let flags = 0;
      let keyBytes: Buffer;
      if (LONE_SURROGATE.test(state.afterKey)) {
        flags |= FLAG_UTF16;
        keyBytes = Buffer.from(state.afterKey, 'utf16le');
      } else {
        keyBytes = Buffer.from(state.afterKey, 'utf8');
      }
      if (keyBytes.length > MAX_KEY_BYTES) {
        flags = FLAG_NO_KEY;
        keyBytes = Buffer.alloc(0);
      }
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt8(VERSION, 0);
      header.writeUInt8(kind, 1);
      header.writeUInt8(flags, 2);
      header.writeUInt32BE(state.offset, 3);
      const body = Buffer.concat([header, keyBytes]);
      return Buffer.concat([body, mac(body)]).toString('base64url');
    },

    decode(cursor, expectedKind) {
      try {
        if (typeof cursor !== 'string') return undefined;
        if (cursor.length < MIN_CURSOR_CHARS || cursor.length > MAX_CURSOR_CHARS) return undefined;
        if (!BASE64URL.test(cursor)) return undefined;
        const raw = Buffer.from(cursor, 'base64url');
        // Node's decoder is lenient (ignores stray bits in the last char); requiring the canonical
        // spelling makes every other string a different, rejected cursor.
        if (raw.toString('base64url') !== cursor) return undefined;
        if (raw.length < HEADER_BYTES + MAC_BYTES) return undefined;
        const body = raw.subarray(0, raw.length - MAC_BYTES);
        if (!timingSafeEqual(mac(body), raw.subarray(raw.length - MAC_BYTES))) return undefined;

        // Authentic from here on; the checks below only guard against format-version skew.
        if (body.readUInt8(0) !== VERSION) return undefined;
        const kind = KINDS[body.readUInt8(1)];
        const flags = body.readUInt8(2);
        if (kind === undefined || (flags & ~(FLAG_UTF16 | FLAG_NO_KEY)) !== 0) return undefined;
        if (expectedKind !== undefined && kind !== expectedKind) return undefined;
        const offset = body.readUInt32BE(3);
        const keyBytes = body.subarray(HEADER_BYTES);
        let afterKey: string;
        if (flags & FLAG_NO_KEY) afterKey = '';
        else if (flags & FLAG_UTF16) {
          if (keyBytes.length % 2 !== 0) return undefined;
          afterKey = keyBytes.toString('utf16le');
        } else afterKey = strictUtf8.decode(keyBytes);
        return { kind, afterKey, offset };
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * What pageBounds needs of the current list. A plain `readonly string[]` satisfies it (O(n)
 * indexOf); for large lists pass `indexKeys(keys)` or the catalog's own Map-backed index.
 * Keys are expected to be unique (exposed names, URIs); indexOf returns -1 when absent.
 */
export interface PageIndex {
  readonly length: number;
  indexOf(key: string): number;
  at(index: number): string | undefined;
}

/** O(1) indexOf over a snapshot of `keys` (first occurrence wins, like Array.prototype.indexOf). */
export function indexKeys(keys: readonly string[]): PageIndex {
  const positions = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!positions.has(k)) positions.set(k, i);
  });
  return {
    length: keys.length,
    indexOf: (key) => positions.get(key) ?? -1,
    at: (index) => keys[index],
  };
}

/**
 * Keyset paging: the page starts right after `after.afterKey` if it is still in the list, else at
 * `after.offset` clamped to the list (items may then be skipped or repeated once — the price of
 * a catalog that changed between pages). `next` is set when items remain after `end`.
 * `kind` stamps the next cursor; `after` must be of the same kind (decode with expectedKind).
 * `pageSize` must be ≥ 1 (Infinity = one page).
 */
export function pageBounds(keys: PageIndex, pageSize: number, after: CursorState | undefined, kind: CursorKind): { start: number; end: number; next?: CursorState } {
  if (!(pageSize >= 1)) throw new RangeError(`pageSize must be >= 1, got ${pageSize}`);
  if (after !== undefined && after.kind !== kind) {
    throw new TypeError(`a ${after.kind} cursor cannot page ${kind}`);
  }
  const length = keys.length;
  let start = 0;
  if (after !== undefined) {
    const found = after.afterKey === '' ? -1 : keys.indexOf(after.afterKey);
    start = found >= 0 ? found + 1 : Math.min(after.offset, length);
  }
  const end = Math.min(length, start + Math.floor(Math.min(pageSize, length)));
  if (end >= length || end <= start) return { start, end };
  const afterKey = keys.at(end - 1);
  if (afterKey === undefined) return { start, end };
  return { start, end, next: { kind, afterKey, offset: end } };
}
