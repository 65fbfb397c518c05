// Stateless traffic needs no affinity: two gateway processes behind Debian's nginx, round robin,
// with the config from docs/examples/nginx-stateless.conf, serve one 2026-07-28 client's calls
// and its listen stream without error, and both processes take a share of the calls.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, fixtureServer, repoRoot, spawnTracked, startGateway, trackDir, waitFor, yamlServers } from '../helpers/index.js';
import { connectStatelessHttp } from '../helpers/stateless-client.js';

afterAll(cleanup);

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(NGINX === undefined)('two gateways behind nginx round robin (skipped: no nginx; .ci/run installs it)', () => {
  it('serve one modern client’s calls and listen stream, both taking calls', async () => {
    // The same stateKey on both, as docs/protocol-2026.md says: cursors and wrapped states are good at either.
    const config = yamlServers([fixtureServer('echo', 'echo')], { listen: { stateKey: 'one key for every process behind the balancer' } });
    const [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
    const portOf = (url: string) => new URL(url).port;
    const front = await freePort();
    const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-nginx-')));
    mkdirSync(path.join(dir, 'tmp'));
    const conf = readFileSync(path.join(repoRoot, 'docs/examples/nginx-stateless.conf'), 'utf8')
      .replace('127.0.0.1:8081', `127.0.0.1:${portOf(a.url)}`)
      .replace('127.0.0.1:8082', `127.0.0.1:${portOf(b.url)}`)
      .replace('listen 127.0.0.1:8080', `listen 127.0.0.1:${front}`);
    writeFileSync(path.join(dir, 'nginx.conf'), conf);
    spawnTracked(NGINX!, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
    // nginx reports readiness only by accepting connections.
    await waitFor(() => accepts(front), { timeout: 10_000, message: 'nginx listening' });

    const { client } = await connectStatelessHttp(`http://127.0.0.1:${front}/mcp`);
    const sub = await client.listen({ toolsListChanged: true });
    expect(sub.honoredFilter).toEqual({ toolsListChanged: true });
    const texts = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'echo__echo', arguments: { text: `call ${i}` } })));
    expect(texts.map((r) => (r.content as Array<{ text: string }>)[0]!.text)).toEqual(Array.from({ length: 20 }, (_, i) => `call ${i}`));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo__echo');
    await sub.close();
    expect(await sub.closed).toBe('local');

    const served = readFileSync(path.join(dir, 'access.log'), 'utf8').trim().split('\n');
    // 202: notifications the client POSTs (the SDK announces the listen's end as well).
    expect(served.filter((line) => !/ 20[02] /.test(line))).toEqual([]);
    const upstreams = new Set(served.map((line) => line.split(' ').at(-1)));
    expect(upstreams).toEqual(new Set([`127.0.0.1:${portOf(a.url)}`, `127.0.0.1:${portOf(b.url)}`]));
  });
});
