// Field-level building blocks of the config schema: durations and sizes (checked, then turned into
// milliseconds and bytes), URLs, origins, names, and the two ways the editor variant differs from
// the validating one (`${VAR}` anywhere, `key:` with nothing after it). Transforms only ever see
// input their own checks accepted.

import * as z from 'zod';
import { DURATION_PATTERN, MAX_DURATION_MS, MAX_SIZE_BYTES, SIZE_PATTERN, parseDuration, parseSize } from './duration.js';

export const NAME_PATTERN = /^[a-z0-9-]+$/;
export const PREFIX_PATTERN = /^[A-Za-z0-9_.-]{0,64}$/;
export const SEPARATOR_PATTERN = /^[A-Za-z0-9_.-]{1,8}$/;
export const MAX_NAME_LENGTH = 64;

export const isHttpUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * A Redis URL as node-redis reads it: redis:// or rediss:// (TLS), a host, an optional port,
 * user:password and database number (`/0`). Nothing after the database.
 */
export const isRedisUrl = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '' && /^(\/\d*)?$/.test(u.pathname) && u.search === '' && u.hash === '';
  } catch {
    return false;
  }
};

/** An Origin header value: scheme, host and optional port, exactly as browsers send it. */
export const isOrigin = (s: string): boolean => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
};

/** Milliseconds, written as a number of them or as `500ms`, `60s`, `2m`, `1h`. */
export const duration = z
  .union(
    [
      z.number().positive().max(MAX_DURATION_MS),
      z
        .string()
        .regex(new RegExp(DURATION_PATTERN), { error: 'must be a duration like 500ms, 60s, 2m or 1h', abort: true })
        .refine(
          (s) => {
            const ms = parseDuration(s);
            return ms !== undefined && ms > 0 && ms <= MAX_DURATION_MS;
          },
          { error: `must be greater than 0 and at most ${MAX_DURATION_MS}ms (about 24 days)` },
        ),
    ],
    { error: 'must be a duration: milliseconds, or a string like 500ms, 60s, 2m or 1h' },
  )
  // (Both branches only pass what parseDuration reads.)
  .transform((v) => parseDuration(v)!);

/** Bytes, written as a number of them or as `512KiB`, `16MiB`, `1MB`. */
export const size = z
  .union(
    [
      z.int().min(1).max(MAX_SIZE_BYTES),
      z
        .string()
        .regex(new RegExp(SIZE_PATTERN), { error: 'must be a size like 512KiB, 16MiB or 1MB', abort: true })
        .refine(
          (s) => {
            const n = parseSize(s);
            return n !== undefined && n >= 1 && n <= MAX_SIZE_BYTES;
          },
          { error: 'must be at least 1 byte and at most 1GiB' },
        ),
    ],
    { error: 'must be a size: bytes, or a string like 512KiB, 16MiB or 1MB' },
  )
  .transform((v) => parseSize(v)!);

/** A server or client name. */
export const nameSchema = z.string().regex(NAME_PATTERN, { error: 'must be lowercase letters, digits and -' }).max(MAX_NAME_LENGTH);

/** Wraps a schema so that editors accept a `${VAR}` there (identity in the validation variant). */
export type Subst = <T extends z.ZodType>(s: T) => T;

/**
 * In the editor variant a number, boolean or patterned field may also hold a `${VAR}` reference,
 * so that editors do not flag `port: ${PORT:-8808}`; the loader coerces the substituted text.
 * (Typed as T: the union only ever reaches the JSON Schema, never validation.)
 */
export function substFor(editor: boolean): Subst {
  const envRef = z.string().regex(/\$\{/).meta({ description: 'A ${VAR} or ${VAR:-default} reference.' });
  return <T extends z.ZodType>(s: T): T => (editor ? (z.union([s, envRef]) as unknown as T) : s);
}

/**
 * A list or mapping key whose default applies also when the key is there with nothing after it
 * (`servers:` with every entry commented out is YAML null). Editors are told null is fine; the
 * validating variant reads null as absent, so the default comes from the one place it is set.
 */
export function orNullFor(editor: boolean) {
  return <T extends z.ZodType>(s: T, fallback: z.input<T>) => {
    const validating = z.preprocess((v) => (v === null ? undefined : v), s.prefault(fallback as never));
    // (Typed as the validating variant: the editor one only ever reaches the JSON Schema.)
    return editor ? (s.nullable().prefault(fallback as never) as unknown as typeof validating) : validating;
  };
}

export type OrNull = ReturnType<typeof orNullFor>;

/** catalog.mode and clients[].catalog.mode. */
export const toolModeSchema = z.enum(['full', 'search', 'auto', 'code']);
/** catalog.tokenBudget and clients[].catalog.tokenBudget. */
export const tokenBudgetSchema = (subst: Subst) => subst(z.int().min(1).max(100_000_000));
/**
 * catalog.directoryBudget and clients[].catalog.directoryBudget. The default fits the directory
 * of the 70 benchmark servers (1,511 o200k tokens, bench/search/catalogs*) with room to spare, and
 * keeps search mode's whole list (guidance, schemas, call_tool: ~310 tokens) within 2,000.
 */
export const DEFAULT_DIRECTORY_BUDGET = 1600;
export const directoryBudgetSchema = (subst: Subst) => subst(z.int().min(0).max(100_000_000));
/** catalog.alwaysVisible and clients[].catalog.alwaysVisible: globs on exposed tool names. */
export const alwaysVisibleSchema = z.array(z.string());
