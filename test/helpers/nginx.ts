// Debian's nginx in front of gateway processes, for tests: a shipped config file run as it is,
// with only its upstream servers and its listen address rewritten to the test's ports. Waits for
// nginx to accept connections (its only sign of readiness); tracked for cleanup().
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths.js';
import { spawnTracked, trackDir, waitFor } from './processes.js';

/** nginx's path, or undefined when it is not installed (.ci/run installs it). */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export interface Nginx {
  /** http://127.0.0.1:PORT */
  base: string;
  port: number;
  dir: string;
  /** The access log's lines so far (the shipped files log `$request_method $status $upstream_addr`). */
  accessLog(): string[];
}

/**
 * Runs `file` (a path from the repository root) with its `server 127.0.0.1:N` lines in order
 * replaced by `upstreams` (ports; the file must list exactly as many) and its one
 * `listen 127.0.0.1:N` by a free port.
 */
export async function startNginx(repoFile: string, upstreams: number[]): Promise<Nginx> {
  if (NGINX === undefined) throw new Error('nginx is not installed (.ci/run installs it)');
  const shipped = readFileSync(path.join(repoRoot, repoFile), 'utf8');
  const servers = shipped.match(/^\s*server 127\.0\.0\.1:\d+[ ;]/gm) ?? [];
  if (servers.length !== upstreams.length) throw new Error(`${repoFile} lists ${servers.length} upstream servers, the test has ${upstreams.length}`);
  let next = 0;
  const port = await freePort();
  const conf = shipped.replace(/^(\s*server 127\.0\.0\.1:)\d+(?=[ ;])/gm, (_all, lead: string) => `${lead}${upstreams[next++]}`).replace(/listen 127\.0\.0\.1:\d+;/, `listen 127.0.0.1:${port};`);
  const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-nginx-')));
  mkdirSync(path.join(dir, 'tmp'));
  writeFileSync(path.join(dir, 'nginx.conf'), conf);
  spawnTracked(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await waitFor(() => accepts(port), { timeout: 10_000, message: 'nginx listening' });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    dir,
    accessLog: () => readFileSync(path.join(dir, 'access.log'), 'utf8').trim().split('\n').filter(Boolean),
  };
}
