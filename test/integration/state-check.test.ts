// `switchboard check` and the state store: without state.redis it says "state: memory" and never
// loads the Redis client (a chunk of its own in the bundle); with it, it connects to a real
// redis-server, says where with the password hidden, and fails when Redis cannot be reached.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, repoRoot, runCli, trackDir } from '../helpers/index.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

const TRACE_HOOK = path.join(repoRoot, 'test', 'fixtures', 'module-trace.mjs');

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await startRedis({ password: 'check-secret' });
  dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-state-check-')));
});
afterAll(cleanup);

/** Runs `check` on `config`; also returns the modules the process loaded. */
async function check(name: string, config: string, env: Record<string, string> = {}) {
  const trace = path.join(dir, `${name}.trace`);
  writeFileSync(trace, '');
  const run = await runCli(['check'], config, { MODULE_TRACE: trace, NODE_OPTIONS: `--import ${TRACE_HOOK}`, ...env });
  return { ...run, loaded: readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
}

const redisChunk = (url: string) => /\/dist\/chunks\/redis-store-[^/]+\.js$/.test(url);

describe('switchboard check and state', () => {
  it('memory: says so, and never loads the Redis client', async () => {
    const r = await check('memory', 'servers: []\n');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^state: memory$/m);
    expect(
      r.loaded.some((u) => u.endsWith('/dist/main.js')),
      'the trace saw the entry point',
    ).toBe(true);
    expect(r.loaded.filter(redisChunk)).toEqual([]);
  });

  it('redis: connects, says where with the password hidden', async () => {
    const r = await check('redis', 'state: { redis: "${REDIS_URL}" }\nservers: []\n', { REDIS_URL: redis.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^state: redis at 127\\.0\\.0\\.1:${redis.port} \\(password hidden\\): reachable$`, 'm'));
    expect(r.loaded.filter(redisChunk)).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain('check-secret');
  });

  it('rediss: connects over TLS, trusting the certificate NODE_EXTRA_CA_CERTS names', async () => {
    const tls = await startRedis({ tls: true, password: 'tls-secret' });
    const config = 'state: { redis: "${REDIS_URL}" }\nservers: []\n';
    const r = await check('tls', config, { REDIS_URL: tls.url, NODE_EXTRA_CA_CERTS: tls.cert! });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^state: redis at 127\\.0\\.0\\.1:${tls.port} \\(TLS, password hidden\\): reachable$`, 'm'));
    // Without the certificate trusted, the connection is refused: TLS is really checked.
    const untrusted = await check('tls-untrusted', config, { REDIS_URL: tls.url });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/self[- ]signed certificate/i);
    expect(untrusted.stdout + untrusted.stderr).not.toContain('tls-secret');
    await tls.stop();
  });

  it('rediss with state.tls: a private CA and a client certificate reach a Redis that checks its clients', async () => {
    const tls = await startRedis({ tls: 'mutual', password: 'mtls-secret' });
    const { ca, clientCert, clientKey } = tls.mutual!;
    const config = (fields: string) => `state: { redis: "\${REDIS_URL}", tls: { ${fields} } }\nservers: []\n`;
    const both = await check('mtls', config(`ca: "${ca}", cert: "${clientCert}", key: "${clientKey}"`), { REDIS_URL: tls.url });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toMatch(new RegExp(`^state: redis at 127\\.0\\.0\\.1:${tls.port} \\(TLS, password hidden\\): reachable$`, 'm'));
    // The CA alone (no NODE_EXTRA_CA_CERTS needed) gets as far as the handshake; Redis then wants a certificate.
    const caOnly = await check('mtls-ca-only', config(`ca: "${ca}"`), { REDIS_URL: tls.url });
    expect(caOnly.code).toBe(1);
    expect(caOnly.stdout).toMatch(/UNREACHABLE/);
    expect(caOnly.stderr).not.toMatch(/self[- ]signed|unable to verify/i);
    // Nothing of the key's contents or the password is ever printed.
    const keyText = readFileSync(clientKey, 'utf8').split('\n')[1]!;
    for (const r of [both, caOnly]) expect(r.stdout + r.stderr).not.toContain(keyText);
    expect(both.stdout + both.stderr + caOnly.stdout + caOnly.stderr).not.toContain('mtls-secret');
    await tls.stop();
  });

  it('state.tls: refused with a redis:// URL, a certificate without its key, and a file that cannot be read, each saying so', async () => {
    const plain = await runCli(['check'], 'state: { redis: "redis://127.0.0.1:1", tls: { ca: "/x/ca.pem" } }\nservers: []\n');
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/state\.tls: is for a rediss:\/\/ URL/);
    const half = await runCli(['check'], 'state: { redis: "rediss://127.0.0.1:1", tls: { cert: "/x/c.pem" } }\nservers: []\n');
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/state\.tls\.key: is needed with the other/);
    const missing = await runCli(['check'], `state: { redis: "rediss://127.0.0.1:1", tls: { ca: "${path.join(dir, 'no-such-ca.pem')}" } }\nservers: []\n`);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout + missing.stderr).toMatch(/state\.tls\.ca: cannot read .*no-such-ca\.pem: ENOENT/);
  });

  it('redis unreachable: a problem, exit 1, the password still hidden', async () => {
    const wrong = redis.url.replace('check-secret', 'not-the-secret');
    const r = await check('down', 'state: { redis: "${REDIS_URL}" }\nservers: []\n', { REDIS_URL: wrong });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^state: redis at 127\.0\.0\.1:\d+ \(password hidden\): UNREACHABLE$/m);
    expect(r.stdout).toMatch(/state: .*unreachable, so new sessions would be refused/);
    expect(r.stdout + r.stderr).not.toContain('not-the-secret');
  });
});
