// The check of JSON string contents (jsonrpc/json-strings.ts): the SIMD WebAssembly function and
// the plain JS one agree on every input, wherever the window of copied bytes ends, and both
// follow RFC 8259 (JSON.parse is the oracle).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_STRINGS_WASM } from '../../../src/jsonrpc/json-strings-wasm.js';
import { forgetWindow, scanString, scanStringJs, simdInUse } from '../../../src/jsonrpc/json-strings.js';

/** Bytes a string's contents are made of, weighted towards the ones that matter. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'x', ' ', 'é', '漢', '😀', '{', '}', ',', ':') },
  { weight: 2, arbitrary: fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u00e9', '\\uD83D', '\\uabcd') },
  { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\\x', '\\u12', '\\u12G4', '\\U0041', '\u0000', '\u0001', '\t', '\n', '\u001f', '\u007f') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);
const contents = fc.array(piece, { maxLength: 80 }).map((p) => p.join(''));

describe('JSON string contents', () => {
  it('are checked with SIMD on this Node (the fast path is not silently off)', () => {
    expect(simdInUse).toBe(true);
    expect(WebAssembly.validate(JSON_STRINGS_WASM)).toBe(true);
  });

  it('get the same verdict from the SIMD and the JS scan, from any start to any end (property)', () => {
    fc.assert(
      fc.property(contents, fc.nat(), fc.nat(), (text, a, z) => {
        const bytes = Buffer.from(text, 'utf8');
        const from = a % (bytes.length + 1);
        const to = from + (z % (bytes.length - from + 1));
        forgetWindow();
        expect(scanString(bytes, from, to)).toBe(scanStringJs(bytes, from, to));
      }),
      { numRuns: 3000 },
    );
  });

  it('end where JSON.parse says the string ends, or are refused where it refuses them (property)', () => {
    fc.assert(
      fc.property(contents, (text) => {
        const bytes = Buffer.from(`"${text}`, 'utf8');
        const r = scanString(bytes, 1, bytes.length);
        // The first quote that closes a valid string, or none: refused, or not closed yet.
        expect(r >= 0 ? r : -1).toBe(validPrefixEnd(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it('agree across the ends of the copied window: escapes cut by it, long plain runs, a control byte past it', () => {
    const window = 65_536;
    for (const escaped of ['\\n', '\\u00e9', '\\\\', '\\"']) {
      for (let at = window - 8; at <= window + 8; at++) {
        const body = 'x'.repeat(at) + escaped + 'y'.repeat(100);
        const bytes = Buffer.from(`"${body}"`, 'utf8');
        forgetWindow();
        const r = scanString(bytes, 1, bytes.length);
        expect(r).toBe(bytes.length - 1);
        expect(r).toBe(scanStringJs(bytes, 1, bytes.length));
      }
    }
    const long = Buffer.from(`"${'z'.repeat(200_000)}\u0001"`, 'utf8');
    expect(scanString(long, 1, long.length)).toBe(-1);
    const cut = Buffer.from(`"${'z'.repeat(100_000)}\\u00`, 'utf8');
    expect(scanString(cut, 1, cut.length)).toBe(-2 - (cut.length - 4));
  });
});

/** Where the first JSON string of `bytes` (opening at 0) validly ends, by JSON.parse, or -1. */
function validPrefixEnd(bytes: Buffer): number {
  for (let end = 1; end < bytes.length; end++) {
    if (bytes[end] !== 0x22) continue;
    try {
      JSON.parse(bytes.subarray(0, end + 1).toString('utf8'));
      return end;
    } catch {
      /* not there */
    }
  }
  return -1;
}
