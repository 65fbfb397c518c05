// The Lua scripts of the Redis store: each keeps one operation atomic and one round trip (a record
// and its holder's count, an event and its publication, a heartbeat and the live count). Times are
// Redis's own (TIME), so replicas with skewed clocks agree on what has expired. Standalone Redis:
// some scripts name keys they build (a holder's set), which Redis Cluster would refuse.

import { createHash } from 'node:crypto';

/** A script run by EVALSHA, loaded with EVAL the first time a Redis has not seen it (NOSCRIPT). */
export class Script {
  readonly sha: string;
  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

/** Redis's clock in milliseconds (a local in every script that needs it). */
const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

/** Gives the key at KEYS[k] at least `ttl` ms more (never shortens what another session needs). */
const EXTEND = "local function extend(k, ttl) if redis.call('PTTL', k) < ttl then redis.call('PEXPIRE', k, ttl) end end";

/**
 * KEYS: record, holder set, events, claims. ARGV: ttl, id, holder-set prefix, field, value, …
 * Replaces the record; counts it under its holder until it expires; its events and claims follow its TTL.
 */
export const PUT = new Script(
  'put',
  `${NOW}
${EXTEND}
local ttl = tonumber(ARGV[1])
local old = redis.call('HGET', KEYS[1], '_h')
if old and ARGV[3] .. old ~= KEYS[2] then redis.call('ZREM', ARGV[3] .. old, ARGV[2]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[2])
extend(KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
redis.call('PEXPIRE', KEYS[4], ttl)
return 1`,
);

/** KEYS: record, events, claims. ARGV: ttl, id, holder-set prefix. 0 when the record is gone. */
export const TOUCH = new Script(
  'touch',
  `${NOW}
${EXTEND}
local ttl = tonumber(ARGV[1])
if redis.call('PEXPIRE', KEYS[1], ttl) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
local h = redis.call('HGET', KEYS[1], '_h')
if h then
  redis.call('ZADD', ARGV[3] .. h, now + ttl, ARGV[2])
  extend(ARGV[3] .. h, ttl)
end
return 1`,
);

/**
 * KEYS: record. ARGV: channel, message, id, holder-set prefix, field, value, … ('' deletes the
 * field). A no-op when the record is gone; else applies it and publishes `message`. A new holder
 * (`_h`) moves the session's count.
 */
export const PATCH = new Script(
  'patch',
  `${NOW}
${EXTEND}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local old = redis.call('HGET', KEYS[1], '_h')
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
local new = redis.call('HGET', KEYS[1], '_h')
if old ~= new then
  if old then redis.call('ZREM', ARGV[4] .. old, ARGV[3]) end
  local ttl = redis.call('PTTL', KEYS[1])
  if new and ttl > 0 then
    redis.call('ZADD', ARGV[4] .. new, now + ttl, ARGV[3])
    extend(ARGV[4] .. new, ttl)
  end
end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1`,
);

/** KEYS: record, events, claims. ARGV: id, holder-set prefix, channel, message ('ended'). */
export const DELETE = new Script(
  'delete',
  `local h = redis.call('HGET', KEYS[1], '_h')
if h then redis.call('ZREM', ARGV[2] .. h, ARGV[1]) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`,
);

/** KEYS: holder set. The sessions in it that have not expired. */
export const COUNT = new Script(
  'count',
  `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`,
);

/**
 * KEYS: events, record. ARGV: maxEvents, stream, data, channel, the rest of the published event's
 * JSON after its id, TTL when there is no record. Appends (trimmed exactly to maxEvents: streams of
 * one session are small, and approximate trimming would keep up to a whole node of 100 more),
 * expires with the record and publishes the event with its new id. Returns the id.
 */
export const APPEND = new Script(
  'append',
  `local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 's', ARGV[2], 'd', ARGV[3])
local ttl = redis.call('PTTL', KEYS[2])
if ttl <= 0 then ttl = tonumber(ARGV[6]) end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PUBLISH', ARGV[4], '{"kind":"event","event":{"id":"' .. id .. '",' .. ARGV[5])
return id`,
);

/** KEYS: claims, record. ARGV: stream, claim, TTL when there is no record. */
export const CLAIM = new Script(
  'claim',
  `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[2])
if ttl <= 0 then ttl = tonumber(ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return 1`,
);

/**
 * KEYS: this replica's heartbeat, the set of replicas. ARGV: replica id, ttl. Renews the heartbeat
 * and returns how many replicas are alive (scored by when theirs expires).
 */
export const HEARTBEAT = new Script(
  'heartbeat',
  `${NOW}
${EXTEND}
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], '1', 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
extend(KEYS[2], ttl)
return redis.call('ZCARD', KEYS[2])`,
);
