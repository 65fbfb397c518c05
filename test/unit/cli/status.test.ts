// `switchboard status` finds the gateway from what serve printed, and tells "no gateway" from
// "a gateway that refused us" (against a real HTTP server on port 0).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError, parseCli } from '../../../src/cli/args.js';
import { fetchStatus, statusUrl, statusUrlFor, statusUrlFromEndpoint } from '../../../src/cli/status.js';

describe('where status asks', () => {
  it('takes the URL serve printed, whatever the MCP path', () => {
    expect(statusUrlFromEndpoint('http://127.0.0.1:8808/mcp')).toBe('http://127.0.0.1:8808/status');
    expect(statusUrlFromEndpoint('http://[::1]:41000/gateway/mcp')).toBe('http://[::1]:41000/status');
    expect(statusUrlFromEndpoint('https://gw.internal/mcp')).toBe('https://gw.internal/status');
    expect(statusUrlFromEndpoint('ftp://x/mcp')).toBeUndefined();
    expect(statusUrlFromEndpoint('not a url')).toBeUndefined();
  });

  it("uses the config's listen, --http over it, and 127.0.0.1:8808 without either", () => {
    expect(statusUrlFor(undefined)).toBe('http://127.0.0.1:8808/status');
    expect(statusUrlFor({ listen: { host: '0.0.0.0', port: 9000, path: '/mcp' } as any })).toBe('http://127.0.0.1:9000/status');
    expect(statusUrlFor({ listen: { host: '127.0.0.1', port: 9000, path: '/mcp' } as any }, { host: 'localhost', port: 1234 })).toBe('http://localhost:1234/status');
    expect(statusUrl({ host: '::', port: 1 })).toBe('http://[::1]:1/status');
  });

  it('parses `status URL`, and refuses a URL together with --http or something else', () => {
    expect(parseCli(['status', 'http://127.0.0.1:8808/mcp'])).toMatchObject({ command: 'status', url: 'http://127.0.0.1:8808/mcp' });
    expect(() => parseCli(['status', '127.0.0.1:8808'])).toThrow(UsageError);
    expect(() => parseCli(['status', 'http://127.0.0.1:8808/mcp', '--http', '127.0.0.1:1'])).toThrow(/either/);
    expect(() => parseCli(['check', 'http://127.0.0.1:8808/mcp'])).toThrow(/unexpected argument/);
  });
});

describe('fetchStatus', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serving(status: number, body: string): Promise<{ url: string; auth: () => string | undefined }> {
    let auth: string | undefined;
    server = createServer((req, res) => {
      auth = req.headers.authorization;
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`, auth: () => auth };
  }

  it('reads the servers of a gateway that answers, sending the token', async () => {
    const gw = await serving(200, JSON.stringify({ servers: [], sessions: 2 }));
    expect(await fetchStatus(gw.url, 'tok')).toEqual({ kind: 'ok', status: { servers: [], sessions: 2 } });
    expect(gw.auth()).toBe('Bearer tok');
  });

  it('says unauthorised on 401, and how to fix it', async () => {
    const gw = await serving(401, '{}');
    expect(await fetchStatus(gw.url)).toEqual({ kind: 'refused', httpStatus: 401, message: expect.stringMatching(/^unauthorised: set SWITCHBOARD_TOKEN/) });
    expect(await fetchStatus(gw.url, 'wrong')).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^unauthorised: SWITCHBOARD_TOKEN is not a token/) });
  });

  it('says forbidden on 403', async () => {
    const gw = await serving(403, '{}');
    expect(await fetchStatus(gw.url, 'tok')).toMatchObject({ kind: 'refused', httpStatus: 403, message: expect.stringMatching(/operator/) });
  });

  it('does not take another program on the port for a gateway', async () => {
    const other = await serving(404, 'not found');
    expect(await fetchStatus(other.url)).toMatchObject({ kind: 'unreachable', message: expect.stringMatching(/404.*not a Switchboard/) });
  });

  it('says so when nothing listens', async () => {
    const gw = await serving(200, '{}');
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    expect(await fetchStatus(gw.url)).toMatchObject({ kind: 'unreachable', message: 'ECONNREFUSED' });
  });
});
