// The `state` section: memory unless a redis:// or rediss:// URL is given (with ${VAR}, where the
// password belongs); a bad URL is a problem at state.redis that never repeats what was written.

import { describe, expect, it } from 'vitest';
import { describeState, maskRedisUrl } from '../../../src/state/redis-url.js';
import { parse, problemsOf } from './helpers.js';

describe('state', () => {
  it('is memory by default, and when the URL is empty', () => {
    expect(parse('servers: []').state).toEqual({ maxEvents: 1000, maxEventBytes: 65536, heartbeatMs: 5000 });
    expect(parse('state: { redis: "${REDIS_URL:-}" }').state.redis).toBeUndefined();
  });

  it('takes redis:// and rediss:// URLs, with auth and a database, from the environment', () => {
    const state = parse('state: { redis: "${REDIS_URL}", keyPrefix: "team-a", maxEvents: 50, heartbeat: 2s }', { REDIS_URL: 'rediss://gw:s3cret@redis.internal:6380/2' }).state;
    expect(state).toEqual({ redis: 'rediss://gw:s3cret@redis.internal:6380/2', keyPrefix: 'team-a', maxEvents: 50, maxEventBytes: 65536, heartbeatMs: 2000 });
    expect(parse('state: { redis: "redis://localhost" }').state.redis).toBe('redis://localhost');
  });

  it.each([
    ['http://user:hunter2@host:6379', 'not a redis scheme'],
    ['redis://:hunter2@/0', 'no host'],
    ['redis://user:hunter2@host:6379/zero', 'a database that is not a number'],
    ['redis://user:hunter2@host:6379/0?tls=1', 'options after it'],
    ['hunter2', 'not a URL'],
  ])('refuses %s (%s) at state.redis, without repeating it', (url) => {
    const problems = problemsOf(`state:\n  redis: "${url}"\n`);
    expect(problems.map((p) => p.path)).toEqual(['state.redis']);
    expect(problems[0]!.message).toMatch(/redis:\/\/ or rediss:\/\//);
    expect(JSON.stringify(problems)).not.toContain('hunter2');
  });

  it('refuses a key prefix Redis users would trip over', () => {
    expect(problemsOf('state: { keyPrefix: "a b" }').map((p) => p.path)).toEqual(['state.keyPrefix']);
    expect(problemsOf('state: { maxEvents: 0 }').map((p) => p.path)).toEqual(['state.maxEvents']);
  });

  it('is described with the password hidden', () => {
    expect(describeState({})).toBe('state: memory');
    expect(describeState({ redis: 'redis://gw:s3cret@redis.internal:6380/2' })).toBe('state: redis at redis.internal:6380 (database 2, password hidden)');
    expect(describeState({ redis: 'rediss://redis.internal' })).toBe('state: redis at redis.internal:6379 (TLS)');
    expect(maskRedisUrl('redis://gw:s3cret@h:1/0')).toBe('redis://gw:***@h:1/0');
  });
});
