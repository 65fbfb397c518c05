// A real redis-server (Debian's, /usr/bin/redis-server; .ci/run installs it) on a free port of
// 127.0.0.1, with no persistence, for the Redis store's tests. Ready when it says so on stdout (no
// sleeps); tracked, so cleanup() (afterAll) kills it. No redis-server: the test fails, saying why.

import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exited, spawnTracked, terminate, trackDir } from './processes.js';

export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => spawnSync(p, ['--version']).status === 0);

export interface RedisServer {
  /** redis://[:password@]127.0.0.1:port, or rediss:// with tls */
  readonly url: string;
  readonly port: number;
  /** With tls: the server's self-signed certificate (give it to clients as NODE_EXTRA_CA_CERTS). */
  readonly cert?: string;
  /** With tls 'mutual': the CA that signed the server's and the client's certificates, and the client's pair (PEM files). */
  readonly mutual?: { ca: string; clientCert: string; clientKey: string };
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

/** A self-signed certificate for 127.0.0.1 in `dir` (openssl, as Debian has it). */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1'];
  const made = spawnSync('openssl', [...args, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr || made.error}`);
  return { cert, key };
}

/**
 * A CA, a server certificate for 127.0.0.1 and a client certificate, both signed by it, in `dir`:
 * what a Redis that checks its clients (tls-auth-clients yes) and its clients need.
 */
function mutualTls(dir: string): { cert: string; key: string; ca: string; clientCert: string; clientKey: string } {
  const file = (name: string) => path.join(dir, name);
  const run = (args: string[]) => {
    const made = spawnSync('openssl', args, { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl ${args[0]} failed: ${made.stderr || made.error}`);
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=switchboard test CA']);
  for (const [who, subject, ext] of [
    ['server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1'],
    ['client', '/CN=switchboard', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    run(['req', ...ec, '-keyout', file(`${who}.key`), '-out', file(`${who}.csr`), '-subj', subject]);
    writeFileSync(file(`${who}.ext`), `${ext}\n`);
    run(['x509', '-req', '-in', file(`${who}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file(`${who}.pem`), '-days', '1', '-extfile', file(`${who}.ext`)]);
  }
  return { cert: file('server.pem'), key: file('server.key'), ca: file('ca.pem'), clientCert: file('client.pem'), clientKey: file('client.key') };
}

interface LaunchOptions {
  password?: string;
  tls?: { cert: string; key: string; ca?: string };
}

/** Runs redis-server on `port`; resolves when it is ready, rejects with its output if it exits first. */
function launch(port: number, dir: string, options: LaunchOptions): Promise<ChildProcess> {
  // With TLS, the port speaks only TLS (`--port 0` turns plain TCP off).
  const ports = options.tls
    ? [
        ...['--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key],
        // With a CA, clients must show a certificate it signed (Redis's own default); without, none is asked.
        ...(options.tls.ca ? ['--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'yes'] : ['--tls-auth-clients', 'no']),
      ]
    : ['--port', String(port)];
  const args = [...ports, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice'];
  if (options.password !== undefined) args.push('--requirepass', options.password);
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

export async function startRedis(options: { password?: string; tls?: boolean | 'mutual' } = {}): Promise<RedisServer> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server is not installed: `apt-get install redis-server` (.ci/run does), the Redis store tests need a real one');
  const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-redis-')));
  const mutual = options.tls === 'mutual' ? mutualTls(dir) : undefined;
  const launchOptions: LaunchOptions = { password: options.password, tls: mutual ?? (options.tls ? selfSigned(dir) : undefined) };
  let child: ChildProcess | undefined;
  let port = 0;
  // Another process may take the free port before redis binds it: try another.
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir, launchOptions);
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/i.test(String((err as { output?: string }).output))) throw err;
    }
  }
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    port,
    cert: launchOptions.tls?.cert,
    mutual: mutual && { ca: mutual.ca, clientCert: mutual.clientCert, clientKey: mutual.clientKey },
    async stop() {
      if (child !== undefined) await terminate(child);
      child = undefined;
    },
    async restart() {
      if (child !== undefined) await terminate(child);
      child = await launch(port, dir, launchOptions);
    },
  };
}
