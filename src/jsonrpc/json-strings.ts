// Checking the contents of a JSON string as bytes (RFC 8259 §7): no raw byte below 0x20, and every
// backslash starts one of the escapes \" \\ \/ \b \f \n \r \t \uXXXX. The raw scan (raw.ts) runs
// this over every string of an answer it passes on unparsed, so it must be cheap per byte: short
// runs are read here in JS, long ones by a SIMD WebAssembly function over a copy of the bytes
// (json-strings-wasm.ts; ~8× faster than the best plain JS on large text). scanStringJs is the
// same contract in plain JS: the fallback where WebAssembly is unavailable, and the tests' oracle.

import { JSON_STRINGS_WASM } from './json-strings-wasm.js';

/** Bytes that end a run of plain string contents (1): controls, the quote and the backslash. */
export const STRING_SPECIAL = new Uint8Array(256);
const SPECIAL = STRING_SPECIAL;
for (let b = 0; b < 0x20; b++) SPECIAL[b] = 1;
SPECIAL[0x22] = 1;
SPECIAL[0x5c] = 1;
/** The bytes that may follow a backslash alone (`u` takes four hex digits). */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const b of '"\\/bfnrt') SIMPLE_ESCAPE[b.charCodeAt(0)] = 1;

const isHex = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
export const isHexByte = (c: number | undefined) => c !== undefined && isHex(c);
export const isSimpleEscape = (c: number) => SIMPLE_ESCAPE[c] === 1;

/**
 * Scans string contents in `bytes` from `i` (after the opening quote, or after an escape) up to
 * `n`. Returns the offset of the closing quote (≥ 0); -1 when the contents are not valid JSON (a
 * raw control byte, an invalid escape); or -2 - s when it stopped at s without a verdict: s = n,
 * or s is a backslash whose escape runs past n (the caller reads it across the seam).
 */
export function scanStringJs(bytes: Uint8Array, i: number, n: number): number {
  for (;;) {
    while (i < n && SPECIAL[bytes[i]!] === 0) i++;
    if (i >= n) return -2 - n;
    const c = bytes[i]!;
    if (c === 0x22) return i;
    if (c < 0x20) return -1;
    if (i + 1 >= n) return -2 - i;
    const e = bytes[i + 1]!;
    if (e === 0x75) {
      if (i + 6 > n) return -2 - i;
      if (!(isHex(bytes[i + 2]!) && isHex(bytes[i + 3]!) && isHex(bytes[i + 4]!) && isHex(bytes[i + 5]!))) return -1;
      i += 6;
    } else if (SIMPLE_ESCAPE[e] === 1) i += 2;
    else return -1;
  }
}

/** Contents read in JS before the SIMD function is worth a call and a copy (most strings end sooner). */
const SHORT = 96;

interface Simd {
  scan(i: number, n: number): number;
  memory: Uint8Array;
}

/** Node's WebAssembly global, as much of it as is used here (the project's lib has no DOM types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { scan: (i: number, n: number) => number; memory: { buffer: ArrayBuffer } } };
};

/** The SIMD scanner, or undefined where WebAssembly (or its SIMD) is not available (--jitless). */
const simd: Simd | undefined = (() => {
  try {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(JSON_STRINGS_WASM));
    return { scan: exports.scan, memory: new Uint8Array(exports.memory.buffer) };
  } catch {
    return undefined;
  }
})();

/** Whether the SIMD function is in use (tests hold it to be, on the Node versions we support). */
export const simdInUse = simd !== undefined;

/**
 * The window of bytes copied into the module's memory: [start, end) of `of`. A message's chunk is
 * copied once, however many strings it holds; forgetWindow() drops it between messages.
 */
let windowOf: Uint8Array | undefined;
let windowStart = 0;
let windowEnd = 0;

export function forgetWindow(): void {
  windowOf = undefined;
}

/** scanStringJs's contract, fast: JS for the first bytes, then SIMD over copies of the chunk. */
export function scanString(bytes: Uint8Array, i: number, n: number): number {
  const near = Math.min(n, i + SHORT);
  const r = scanStringJs(bytes, i, near);
  if (r > -2 || near === n) return r;
  // Stopped at `near`, or at an escape that runs past it: on from there.
  i = -2 - r;
  if (simd === undefined) return scanStringJs(bytes, i, n);
  const memory = simd.memory;
  for (;;) {
    if (bytes !== windowOf || i < windowStart || i >= windowEnd) {
      windowOf = bytes;
      windowStart = i;
      windowEnd = Math.min(n, i + memory.length);
      memory.set(bytes.subarray(windowStart, windowEnd), 0);
    }
    const end = Math.min(n, windowEnd);
    const w = simd.scan(i - windowStart, end - windowStart);
    if (w >= 0) return windowStart + w;
    if (w === -1) return -1;
    const stop = windowStart + (-2 - w);
    // The window ended before the bytes did, or an escape runs past it: go on from there.
    if (stop === n) return -2 - n;
    if (stop === end) i = end;
    else if (end === n) return -2 - stop;
    else {
      windowOf = undefined;
      i = stop;
    }
  }
}
