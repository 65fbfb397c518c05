// Replicas for the scale-out figures and the soak's --replicas mode: Debian's redis-server on a
// free port, gateways sharing it (state.redis, one listen.stateKey), and deploy/nginx.conf as
// shipped in front, with only its upstream servers and listen port rewritten. Every process is
// started through procs.mjs, so the harness's exit hooks end them.

import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY, ROOT_DIR, freePort, startGatewayHttp, writeGatewayConfig } from './paths.mjs';
import { sleep, start } from './procs.mjs';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const STATE_KEY = 'bench: one state key for every replica behind the balancer';

/** redis-server on a free port, no persistence; resolves { url, proc, stop(), restart() } once it is ready. */
export async function startRedis() {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: apt-get install redis-server`);
  const port = await freePort();
  const boot = () =>
    new Promise((resolve, reject) => {
      const proc = start(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        label: 'redis-server',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) resolve(proc);
      });
      proc.exitPromise.then(() => reject(new Error(`redis-server exited (code ${proc.exitCode})\n${out.slice(-2000)}`)));
    });
  const redis = { url: `redis://127.0.0.1:${port}/0`, proc: await boot() };
  redis.stop = () => redis.proc.stop();
  redis.restart = async () => {
    await redis.proc.stop();
    redis.proc = await boot();
  };
  return redis;
}

/** A gateway config of one stdio echo server; with `redisUrl`, on that store with the shared state key. */
export function clusterConfig(redisUrl) {
  const file = writeGatewayConfig({ count: 1 });
  if (redisUrl !== undefined) appendFileSync(file, `state: { redis: ${JSON.stringify(redisUrl)} }\nlisten: { stateKey: ${JSON.stringify(STATE_KEY)} }\n`);
  return file;
}

/** `count` gateways on one config; resolves [{ proc, url, port }]. */
export async function startReplicas(configFile, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const g = await startGatewayHttp(configFile);
    out.push({ ...g, port: Number(new URL(g.url).port) });
  }
  return out;
}

/**
 * One gateway on a given port (a replica restarted where nginx expects it); resolves the
 * procs.mjs handle once it logs "listening on".
 */
export function startReplicaOn(configFile, port, gateway = GATEWAY) {
  return new Promise((resolve, reject) => {
    const proc = start(process.execPath, [gateway, 'serve', '-c', configFile, '--http', `127.0.0.1:${port}`, '--log-format', 'json'], {
      label: `switchboard :${port}`,
      stdio: ['ignore', 'ignore', 'pipe'],
      onStderrLine: (line) => line.includes('listening on http://') && resolve(proc),
    });
    proc.exitPromise.then(() => reject(new Error(`switchboard on port ${port} exited (code ${proc.exitCode})\n${proc.stderrTail().slice(-2000)}`)));
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * deploy/nginx.conf with its three upstream servers replaced by `ports` (three of them; the same
 * port thrice puts one replica behind the same nginx); resolves { proc, url } once it accepts.
 */
export async function startNginx(ports) {
  if (NGINX === undefined) throw new Error('nginx is missing: apt-get install nginx-light');
  const shipped = readFileSync(join(ROOT_DIR, 'deploy', 'nginx.conf'), 'utf8');
  let next = 0;
  const port = await freePort();
  const conf = shipped.replace(/^(\s*server 127\.0\.0\.1:)\d+(?=[ ;])/gm, (_all, lead) => `${lead}${ports[next++]}`).replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${port};`);
  if (next !== 3 || ports.length !== 3) throw new Error('deploy/nginx.conf must list three upstream servers, and three ports are needed');
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-bench-nginx-'));
  // Its logs and temp files go with the run (after the exit hooks have stopped nginx).
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc = start(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { label: 'nginx', stdio: ['ignore', 'ignore', 'pipe'] });
  // nginx tells readiness only by accepting connections.
  for (let i = 0; !(await accepts(port)); i++) {
    if (proc.exited || i > 400) throw new Error(`nginx did not listen\n${proc.stderrTail()}`);
    await sleep(25);
  }
  return { proc, url: `http://127.0.0.1:${port}/mcp`, dir };
}
