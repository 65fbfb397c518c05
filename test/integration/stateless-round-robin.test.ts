// Stateless traffic needs no affinity: two gateway processes behind Debian's nginx, round robin,
// with the config from docs/examples/nginx-stateless.conf, serve one 2026-07-28 client's calls
// and its listen stream without error, and both processes take a share of the calls.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, fixtureServer, startGateway, yamlServers } from '../helpers/index.js';
import { NGINX, startNginx } from '../helpers/nginx.js';
import { connectStatelessHttp } from '../helpers/stateless-client.js';

afterAll(cleanup);

describe.skipIf(NGINX === undefined)('two gateways behind nginx round robin (skipped: no nginx; .ci/run installs it)', () => {
  it('serve one modern client’s calls and listen stream, both taking calls', async () => {
    // The same stateKey on both, as docs/protocol-2026.md says: cursors and wrapped states are good at either.
    const config = yamlServers([fixtureServer('echo', 'echo')], { listen: { stateKey: 'one key for every process behind the balancer' } });
    const [a, b] = await Promise.all([startGateway(config), startGateway(config)]);
    const portOf = (url: string) => Number(new URL(url).port);
    const nginx = await startNginx('docs/examples/nginx-stateless.conf', [portOf(a.url), portOf(b.url)]);

    const { client } = await connectStatelessHttp(`${nginx.base}/mcp`);
    const sub = await client.listen({ toolsListChanged: true });
    expect(sub.honoredFilter).toEqual({ toolsListChanged: true });
    const texts = await Promise.all(Array.from({ length: 20 }, (_, i) => client.callTool({ name: 'echo__echo', arguments: { text: `call ${i}` } })));
    expect(texts.map((r) => (r.content as Array<{ text: string }>)[0]!.text)).toEqual(Array.from({ length: 20 }, (_, i) => `call ${i}`));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo__echo');
    await sub.close();
    expect(await sub.closed).toBe('local');

    const served = nginx.accessLog();
    // 202: notifications the client POSTs (the SDK announces the listen's end as well).
    expect(served.filter((line) => !/ 20[02] /.test(line))).toEqual([]);
    const upstreams = new Set(served.map((line) => line.split(' ').at(-1)));
    expect(upstreams).toEqual(new Set([`127.0.0.1:${portOf(a.url)}`, `127.0.0.1:${portOf(b.url)}`]));
  });
});
