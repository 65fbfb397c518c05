// The smallest Debian redis-server for the scale-out tests, until h32-redis's
// test/helpers/redis-server.ts (same shape: startRedis() → { url, stop(), restart() }) replaces it.
// A free port (redis has no port 0), no persistence; ready when it says so on stdout; tracked.
import { existsSync } from 'node:fs';
import { freePort } from '../helpers/nginx.js';
import { LineCollector, exited, spawnTracked, terminate } from '../helpers/processes.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  /** Stops it (SIGTERM; its data goes with it). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: .ci/run installs Debian's redis-server (apt-get install redis-server)`);
  const port = await freePort();
  let proc: ReturnType<typeof spawnTracked> | undefined;
  const start = async () => {
    proc = spawnTracked(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    const out = new LineCollector(proc.stdout);
    proc.stderr?.resume();
    await out.waitForLine(/Ready to accept connections/, 10_000, 'redis-server stdout');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    stop: async () => {
      if (proc) await terminate(proc, 5000);
    },
    restart: async () => {
      if (proc) await exited(proc);
      await start();
    },
  };
}
