// Reading a message kept as the chunks it was read in (raw.ts) by offset from its start: bytes,
// spellings, and the JSON tokens that may run across the seam between two chunks (strings,
// numbers), each checked against RFC 8259's grammar. Plus the UTF-8 check of bytes passed on unread.
// Scanning bytes for ASCII structure is sound in UTF-8: no byte of a multi-byte character (nor of
// an invalid sequence, which a decoder replaces without swallowing ASCII) is below 0x80.

import { isUtf8 } from 'node:buffer';
import { isHexByte, isSimpleEscape, scanString } from './json-strings.js';

const isDigit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;
export const isSpace = (c: number | undefined) => c === 32 || c === 10 || c === 13 || c === 9;

export class Bytes {
  readonly starts: number[] = [];
  readonly length: number;
  /** The chunk the last lookup found: reads walk forward, so it is nearly always the next one's too. */
  private cursor = 0;

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
    const k = this.cursor;
    if (g >= this.starts[k]! && (k + 1 === this.chunks.length || g < this.starts[k + 1]!)) return k;
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= g) lo = mid;
      else hi = mid - 1;
    }
    return (this.cursor = lo);
  }

  at(g: number): number | undefined {
    if (g < 0 || g >= this.length) return undefined;
    if (this.chunks.length === 1) return this.chunks[0]![g];
    const k = this.chunkAt(g);
    return this.chunks[k]![g - this.starts[k]!];
  }

  /** Whether bytes [from, to) spell `word` (ASCII). */
  spells(from: number, to: number, word: string): boolean {
    if (to - from !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (this.at(from + k) !== word.charCodeAt(k)) return false;
    return true;
  }

  /** Whether bytes [from, to) hold a backslash. */
  hasBackslash(from: number, to: number): boolean {
    for (let g = from; g < to; g++) if (this.at(g) === 92) return true;
    return false;
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

  skipSpace(g: number): number {
    while (g < this.length && isSpace(this.at(g))) g++;
    return g;
  }

  /**
   * Offset of the quote closing a string, read from `from` (just after its opening quote, or
   * where its contents so far were plain), or -1 when it never closes or its contents are not
   * JSON (a raw byte below 0x20, an invalid escape).
   */
  stringEnd(from: number): number {
    let g = from;
    for (;;) {
      if (g >= this.length) return -1;
      const k = this.chunkAt(g);
      const chunk = this.chunks[k]!;
      const base = this.starts[k]!;
      const r = scanString(chunk, g - base, chunk.length);
      if (r >= 0) return base + r;
      if (r === -1) return -1;
      const stop = base + (-2 - r);
      if (stop === base + chunk.length) g = stop;
      else if ((g = this.escapeEnd(stop)) === -1) return -1;
    }
  }

  /** End of the escape whose backslash is at `g` (read across chunks), or -1 if it is not one. */
  private escapeEnd(g: number): number {
    const e = this.at(g + 1);
    if (e === undefined) return -1;
    if (e !== 0x75) return isSimpleEscape(e) ? g + 2 : -1;
    for (let k = 2; k < 6; k++) if (!isHexByte(this.at(g + k))) return -1;
    return g + 6;
  }

  /** End (exclusive) of the number token at `g` per the JSON grammar, or -1 if none starts there. */
  numberEnd(g: number): number {
    let c = this.at(g);
    if (c === 45 /* - */) c = this.at(++g);
    if (c === 48 /* 0 */) c = this.at(++g);
    else if (isDigit(c)) while (isDigit((c = this.at(++g))));
    else return -1;
    if (c === 46 /* . */) {
      if (!isDigit((c = this.at(++g)))) return -1;
      while (isDigit((c = this.at(++g))));
    }
    if (c === 101 || c === 69 /* e E */) {
      c = this.at(++g);
      if (c === 43 || c === 45 /* + - */) c = this.at(++g);
      if (!isDigit(c)) return -1;
      while (isDigit((c = this.at(++g))));
    }
    return g;
  }
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
export function isUtf8Chunks(chunks: readonly Buffer[]): boolean {
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
