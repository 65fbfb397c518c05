// A real redis-server (Debian's, /usr/bin/redis-server; .ci/run installs it) on a free port of
// 127.0.0.1, with no persistence, for the Redis store's tests. Ready when it says so on stdout (no
// sleeps); tracked, so cleanup() (afterAll) kills it. No redis-server: the test fails, saying why.

import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exited, spawnTracked, terminate, trackDir } from './processes.js';

export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => spawnSync(p, ['--version']).status === 0);

export interface RedisServer {
  /** redis://[:password@]127.0.0.1:port */
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM); its data is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

/** A port nothing listens on right now (redis-server has no `--port 0`). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs redis-server on `port`; resolves when it is ready, rejects with its output if it exits first. */
function launch(port: number, dir: string, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice'];
  if (password !== undefined) args.push('--requirepass', password);
  const child = spawnTracked(REDIS_SERVER!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        child.stdout!.off('data', onData);
        // Keep reading so a full pipe never blocks it.
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited(child).then(({ code, signal }) => reject(Object.assign(new Error(`redis-server exited (${code ?? signal}) before it was ready:\n${output}`), { output })));
  });
}

export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server is not installed: `apt-get install redis-server` (.ci/run does), the Redis store tests need a real one');
  const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-redis-')));
  let child: ChildProcess | undefined;
  let port = 0;
  // Another process may take the free port before redis binds it: try another.
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir, options.password);
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/i.test(String((err as { output?: string }).output))) throw err;
    }
  }
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    async stop() {
      if (child !== undefined) await terminate(child);
      child = undefined;
    },
    async restart() {
      if (child !== undefined) await terminate(child);
      child = await launch(port, dir, options.password);
    },
  };
}
