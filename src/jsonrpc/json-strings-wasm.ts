// The bytes of a tiny WebAssembly module that checks JSON string contents 16 bytes at a time
// (SIMD): it is what keeps the raw pass-through's check of every byte of a large answer cheap
// (bench/raw-scan.mjs). Built here from named instructions so that it can be read and reviewed;
// json-strings.ts holds the same contract in plain JS, and tests hold the two to each other.
//
// scan(i, n): looks at memory bytes [i, n) of a string's contents (after its opening quote) and
// returns the offset of the closing quote (≥ 0); -1 when a raw byte below 0x20 or an invalid
// escape comes first; -2 - s when it stops at s with no verdict: s = n (the window ended), or s
// is a backslash whose escape runs past n. As WAT:
//
//   (func $hex (param $c i32) (result i32)                       ;; [0-9a-fA-F]
//     (i32.or (i32.lt_u (i32.sub c 48) 10) (i32.lt_u (i32.sub (i32.or c 32) 97) 6)))
//   (func (export "scan") (param $i i32) (param $n i32) (result i32) (local $m i32) (local $c i32) (local $v v128)
//     (loop $next
//       (block $found
//         (block $short
//           (loop $vec                                             ;; 16 bytes at a time
//             (br_if $short (i > n - 16))
//             (v = load16 i)  (m = bitmask (v <u 0x20 | v == '"' | v == '\'))
//             (if m (then (i += ctz m) (br $found)))
//             (i += 16) (br $vec)))
//         (loop $byte                                              ;; the last < 16, one by one
//           (if (i >= n) (then (return -2 - n)))
//           (c = load8 i) (br_if $found (c < 0x20 | c == '"' | c == '\'))
//           (i += 1) (br $byte)))
//       (c = load8 i)
//       (if (c == '"') (then (return i)))  (if (c < 0x20) (then (return -1)))
//       (if (i + 1 >= n) (then (return -2 - i)))
//       (c = load8 (i + 1))
//       (if (c == 'u') (then (if (i + 6 > n) (then (return -2 - i)))
//                            (if (not (hex i+2 & hex i+3 & hex i+4 & hex i+5)) (then (return -1)))
//                            (i += 6) (br $next)))
//       (if (c is one of " \ / b f n r t) (then (i += 2) (br $next)))
//       (return -1))
//     (i32.const -1))

// Opcodes (WebAssembly core spec 1.0 and the fixed-width SIMD proposal, both in Node 20).
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const CALL = 0x10;
const VOID = 0x40;
const I32 = 0x7f;
const V128 = 0x7b;
const GET = 0x20;
const SET = 0x21;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_LT_U = 0x49;
const I32_GT_U = 0x4b;
const I32_GE_U = 0x4f;
const I32_CTZ = 0x68;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_OR = 0x72;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00, 4, 0]; // align 2^4, offset 0
const I8X16_EQ = [SIMD, 0x23];
const I8X16_LT_U = [SIMD, 0x26];
const V128_OR = [SIMD, 0x50];
const I8X16_BITMASK = [SIMD, 0x64];

/** Signed LEB128, as i32.const takes its operand. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}
/** Unsigned LEB128: sizes and counts. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? byte : byte | 0x80);
  } while (n !== 0);
  return out;
}
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'ascii')];

const c = (n: number) => [0x41, ...sleb(n)];
const load8 = (offset: number) => [0x2d, 0, offset];
const splat = (byte: number) => [SIMD, 0x0c, ...new Array<number>(16).fill(byte)];
// Locals of scan: 0 = i, 1 = n (the params), 2 = m, 3 = c, 4 = v.
const [i, n, m, ch, v] = [0, 1, 2, 3, 4];
/** c == each of `bytes`, or-ed together. */
const isOneOf = (bytes: number[]) => [...bytes.flatMap((b, k) => [GET, ch, ...c(b), I32_EQ, ...(k > 0 ? [I32_OR] : [])])];
const hexAt = (offset: number) => [GET, i, ...load8(offset), CALL, 0];

const HEX = [...[GET, 0, ...c(48), I32_SUB, ...c(10), I32_LT_U], ...[GET, 0, ...c(32), I32_OR, ...c(97), I32_SUB, ...c(6), I32_LT_U], I32_OR, END];

const SCAN = [
  ...[LOOP, VOID], //                                           $next (label depths below count outwards)
  ...[BLOCK, VOID], //                                            $found
  ...[BLOCK, VOID], //                                              $short
  ...[LOOP, VOID], //                                                 $vec
  ...[GET, i, ...c(16), I32_ADD, GET, n, I32_GT_U, BR_IF, 1], //        i + 16 > n: br $short
  ...[GET, i, ...V128_LOAD, SET, v],
  ...[GET, v, ...splat(0x20), ...I8X16_LT_U, GET, v, ...splat(0x22), ...I8X16_EQ, ...V128_OR],
  ...[GET, v, ...splat(0x5c), ...I8X16_EQ, ...V128_OR, ...I8X16_BITMASK, SET, m],
  ...[GET, m, IF, VOID, GET, i, GET, m, I32_CTZ, I32_ADD, SET, i, BR, 3, END], // br $found
  ...[GET, i, ...c(16), I32_ADD, SET, i, BR, 0, END], //                br $vec
  END, //                                                             end $short
  ...[LOOP, VOID], //                                                 $byte
  ...[GET, i, GET, n, I32_GE_U, IF, VOID, ...c(-2), GET, n, I32_SUB, RETURN, END],
  ...[GET, i, ...load8(0), SET, ch],
  ...[GET, ch, ...c(0x20), I32_LT_U, ...isOneOf([0x22, 0x5c]), I32_OR, BR_IF, 1], // br $found
  ...[GET, i, ...c(1), I32_ADD, SET, i, BR, 0, END], //                 br $byte
  END, //                                                           end $found
  ...[GET, i, ...load8(0), SET, ch],
  ...[...isOneOf([0x22]), IF, VOID, GET, i, RETURN, END],
  ...[GET, ch, ...c(0x20), I32_LT_U, IF, VOID, ...c(-1), RETURN, END],
  ...[GET, i, ...c(1), I32_ADD, GET, n, I32_GE_U, IF, VOID, ...c(-2), GET, i, I32_SUB, RETURN, END],
  ...[GET, i, ...load8(1), SET, ch],
  ...[...isOneOf([0x75]), IF, VOID], //                             \u
  ...[GET, i, ...c(6), I32_ADD, GET, n, I32_GT_U, IF, VOID, ...c(-2), GET, i, I32_SUB, RETURN, END],
  ...[...hexAt(2), ...hexAt(3), I32_AND, ...hexAt(4), ...hexAt(5), I32_AND, I32_AND, I32_EQZ, IF, VOID, ...c(-1), RETURN, END],
  ...[GET, i, ...c(6), I32_ADD, SET, i, BR, 1, END], //                 br $next
  ...[...isOneOf([0x22, 0x5c]), ...isOneOf([0x2f, 0x62]), I32_OR],
  ...[...isOneOf([0x66, 0x6e]), ...isOneOf([0x72, 0x74]), I32_OR, I32_OR],
  ...[IF, VOID, GET, i, ...c(2), I32_ADD, SET, i, BR, 1, END], //        br $next
  ...[...c(-1), RETURN],
  END, //                                                           end $next
  ...c(-1),
  END,
];

/** The module: memory 0 (one 64 KiB page, exported as "memory") and the function "scan". */
export const JSON_STRINGS_WASM = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(
    1,
    vec([
      [0x60, ...vec([[I32]]), ...vec([[I32]])],
      [0x60, ...vec([[I32], [I32]]), ...vec([[I32]])],
    ]),
  ),
  ...section(3, vec([[0], [1]])),
  ...section(5, vec([[0x00, 1]])),
  ...section(
    7,
    vec([
      [...name('memory'), 0x02, 0],
      [...name('scan'), 0x00, 1],
    ]),
  ),
  ...section(10, vec([[...uleb(HEX.length + 1), 0, ...HEX], withLocals(SCAN)])),
]);

function withLocals(body: number[]): number[] {
  const locals = vec([
    [2, I32],
    [1, V128],
  ]);
  return [...uleb(locals.length + body.length), ...locals, ...body];
}
