// Durations (`500ms`, `60s`, `2m`, `1h`, or a number of milliseconds) and byte sizes (`16MiB`,
// `512KiB`, `1MB`, or a number of bytes) as written in the config file. Pure parsing, no I/O.

/** setTimeout() fires at once for anything longer than this, so no timeout may exceed it. */
export const MAX_DURATION_MS = 2_147_483_647;

/** The largest accepted `limits.maxMessageBytes`: 1 GiB. */
export const MAX_SIZE_BYTES = 1024 * 1024 * 1024;

/** A decimal number followed by a unit; used for validation and in the JSON Schema. */
export const DURATION_PATTERN = '^(\\d+(?:\\.\\d+)?|\\.\\d+) ?(ms|s|m|h)$';
export const SIZE_PATTERN = '^(\\d+(?:\\.\\d+)?|\\.\\d+) ?([Bb]|[Kk][Bb]|[Kk][Ii][Bb]|[Mm][Bb]|[Mm][Ii][Bb])$';

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const sizeUnits: Record<string, number> = { b: 1, kb: 1000, kib: 1024, mb: 1_000_000, mib: 1024 * 1024 };

const DURATION_RE = new RegExp(DURATION_PATTERN);
const SIZE_RE = new RegExp(SIZE_PATTERN);

/**
 * Milliseconds for a duration: a number is already milliseconds, a string needs a unit (`1.5s`).
 * Fractions of a millisecond round up. Returns undefined when the input is not a duration; the
 * caller checks the range (> 0, ≤ MAX_DURATION_MS).
 */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.ceil(value) : undefined;
  const m = DURATION_RE.exec(value);
  if (!m) return undefined;
  return Math.ceil(Number(m[1]) * durationUnits[m[2]!]!);
}

/**
 * Bytes for a size: a number is bytes, a string needs a unit (B, KB, KiB, MB, MiB; KB and MB are
 * powers of ten, KiB and MiB powers of two; case does not matter). Fractions of a byte round down.
 */
export function parseSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.floor(value) : undefined;
  const m = SIZE_RE.exec(value);
  if (!m) return undefined;
  return Math.floor(Number(m[1]) * sizeUnits[m[2]!.toLowerCase()]!);
}
