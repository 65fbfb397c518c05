// `state`: where what several replicas share lives (src/state/): in memory by default (one process,
// nothing to install), in Redis with `state.redis`. Read at start. The URL may carry a password:
// validation messages never repeat it (the loader reports no input), and nothing logs it unmasked.

import * as z from 'zod';
import { duration, isRedisUrl, type Subst } from './schema-values.js';

export const DEFAULT_MAX_EVENTS = 1000;
/** Kept in step with src/state/stand-in.ts (config does not import state/). */
export const DEFAULT_MAX_EVENT_BYTES = 64 * 1024;

export function stateSchema(subst: Subst) {
  return z
    .strictObject({
      // An empty value (`${REDIS_URL:-}` with the variable unset) is the same as none: memory.
      redis: z
        .preprocess(
          (v) => (v === '' ? undefined : v),
          z.string().refine(isRedisUrl, { error: 'must be a redis:// or rediss:// URL like redis://user:password@host:6379/0 (host, optional port, user:password and database)' }).optional(),
        )
        .meta({
          description:
            'Redis to keep sessions, resumable SSE events, call claims and cluster-wide counts in, so that every replica with the same config serves every session: redis://[user:password@]host[:port][/db], or rediss:// for TLS. Use ${VAR} for the password. Without it: in memory, one process. Read at start.',
        }),
      tls: z
        .strictObject({
          ca: z.string().min(1).optional().meta({ description: "PEM file of the CA (or CAs) that signed Redis's certificate, trusted instead of the system's. Relative to the config file." }),
          cert: z
            .string()
            .min(1)
            .optional()
            .meta({ description: "PEM file of the gateway's client certificate, for a Redis that checks clients (redis.conf tls-auth-clients yes, its default). With key." }),
          key: z.string().min(1).optional().meta({ description: 'PEM file of the private key of cert. With cert. Read at start; never logged.' }),
        })
        .optional()
        .meta({ description: 'TLS to a rediss:// Redis: a private CA, and a client certificate for mutual TLS. Read at start.' }),
      keyPrefix: z
        .string()
        .regex(/^[A-Za-z0-9_.:-]{0,64}$/, { error: 'must be at most 64 of A-Z a-z 0-9 _ . : -' })
        .optional()
        .meta({ description: 'Put after "sb:" in every Redis key and channel, so several gateways (or clusters) can share one Redis. Default: none.' }),
      maxEvents: subst(z.int().min(1).max(1_000_000))
        .prefault(DEFAULT_MAX_EVENTS)
        .meta({ description: `SSE events kept per session for clients that reconnect with Last-Event-ID; the oldest beyond it go (default ${DEFAULT_MAX_EVENTS}).` }),
      maxEventBytes: subst(
        z
          .int()
          .min(1024)
          .max(4 * 1024 * 1024),
      )
        .prefault(DEFAULT_MAX_EVENT_BYTES)
        .meta({
          description: `Largest SSE event (in bytes) kept for resumption, from 1024 to 4 MiB (default ${DEFAULT_MAX_EVENT_BYTES}). A larger one is sent in full on its stream once and kept as a stand-in: for an answer, an ANSWER_NOT_KEPT error for its id; for a notification or request, an empty event. With redis, a session's events take at most maxEvents × this.`,
        }),
      heartbeat: subst(duration)
        .prefault('5s')
        .meta({ description: 'With redis: a replica not heard from for this long is dead (its calls in flight are failed by another); renewed every third of it (default 5s).' }),
    })
    .prefault({})
    .meta({ description: 'Where sessions and what replicas share live: in memory, or in Redis when redis is set.' });
}

/** `state.tls` is for a rediss:// URL (not a redis:// one), and a client certificate goes with its key. */
export function stateProblems(tree: unknown): { path: (string | number)[]; message: string }[] {
  const state = isRecord(tree) && isRecord(tree.state) ? tree.state : undefined;
  const tls = state !== undefined && isRecord(state.tls) ? state.tls : undefined;
  if (tls === undefined) return [];
  const problems: { path: (string | number)[]; message: string }[] = [];
  // No redis (memory, or an unset ${REDIS_URL:-}): nothing to connect, so nothing to contradict.
  if (typeof state!.redis === 'string' && state!.redis !== '' && !state!.redis.startsWith('rediss://')) {
    problems.push({ path: ['state', 'tls'], message: 'is for a rediss:// URL, and state.redis is redis:// (no TLS): the settings would be ignored' });
  }
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    problems.push({ path: ['state', 'tls', tls.cert === undefined ? 'cert' : 'key'], message: 'is needed with the other: a client certificate goes with its private key' });
  }
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
