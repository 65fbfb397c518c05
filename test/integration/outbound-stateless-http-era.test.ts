// Era detection over HTTP against real servers: a 2025-era Streamable HTTP server (the SDK v1
// fixture) and a legacy HTTP+SSE one are found legacy by the modern probe and spoken to as before;
// a server that answers 401 decides nothing (the attempt fails, nothing is remembered); a server
// pinned `protocol: 2026-07-28` that is not modern fails without an initialize.

import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { eraCache, eraKey } from '../../src/outbound/era.js';
import { ServerConnection } from '../../src/outbound/server-connection.js';
import { cleanup, startHttpFixture } from '../helpers/index.js';
import { gatewayConfig } from '../unit/outbound/connection-harness.js';

afterAll(cleanup);

const configFor = (url: string, extra: Record<string, unknown> = {}) => gatewayConfig({ servers: [{ name: 'remote', url, ...extra }] }).servers[0]!;

async function connected(url: string, extra: Record<string, unknown> = {}) {
  const connection = new ServerConnection(configFor(url, extra), silentLogger(), {}, { reconnect: false });
  await connection.connect();
  return connection;
}

describe('era detection over HTTP', () => {
  it('a 2025-era Streamable HTTP server is legacy: initialize follows, and calls work as before', async () => {
    const fixture = await startHttpFixture();
    const connection = await connected(fixture.url);
    try {
      expect(connection).toMatchObject({ state: 'ready', era: 'stateful', transportKind: 'streamable-http' });
      expect(connection.protocolVersion).not.toBe('2026-07-28');
      expect(eraCache.get(eraKey(connection.config))).toBe('stateful');
      const answer = (await connection.forward('tools/call', { name: 'echo', arguments: { text: 'hi' } })) as any;
      expect(answer.result.content[0].text).toContain('hi');
    } finally {
      await connection.close();
    }
  });

  it('a legacy HTTP+SSE server is legacy, through the auto fallback', async () => {
    const fixture = await startHttpFixture({ legacy: true });
    const connection = await connected(fixture.url);
    try {
      expect(connection).toMatchObject({ state: 'ready', era: 'stateful', transportKind: 'sse' });
    } finally {
      await connection.close();
    }
  });

  it('401 to the probe decides nothing: the attempt waits for a login, no verdict is kept, no initialize is sent', async () => {
    const methods: string[] = [];
    const server = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      methods.push(body ? JSON.parse(body).method : req.method!);
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ error: 'invalid_token' }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const connection = await connected(url);
      // A Bearer challenge is OAuth's (the gateway has no token for it): a login is what is missing.
      expect(connection).toMatchObject({ state: 'needs-login', problem: expect.stringContaining('switchboard login') });
      expect(methods).toEqual(['server/discover']);
      expect(eraCache.get(eraKey(connection.config))).toBeUndefined();
      await connection.close();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('protocol: 2026-07-28 against a 2025-era server fails with PROTOCOL_MISMATCH', async () => {
    const fixture = await startHttpFixture();
    const connection = await connected(fixture.url, { protocol: '2026-07-28' });
    expect(connection).toMatchObject({ state: 'failed', problem: expect.stringContaining('does not speak 2026-07-28') });
    await connection.close();
  });
});
