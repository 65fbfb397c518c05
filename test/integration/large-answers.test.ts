// Large answers pass through the gateway as the server's bytes (jsonrpc/raw.ts), and leave it as
// latin1 text of those bytes (jsonrpc/wire-bytes.ts). Whatever the faces, what the client gets is
// exactly what the server said: multi-byte characters across every 64 KiB read boundary, over
// stdio, over HTTP as a JSON reply, and over HTTP as an SSE stream (progress before the answer);
// and from remote servers whose answers come as SSE events (http-sse-reader.ts keeps a large
// event's data as bytes), over Streamable HTTP and over the legacy HTTP+SSE transport.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, httpServer, startGateway, startHttpFixture, stdioGatewayParams, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const config = yamlServers([fixtureServer('echo', 'echo'), fixtureServer('live', 'interactive')]);

/** ~320 KB of text whose 1- to 4-byte characters fall on every offset, so reads cut through them. */
function bigText(): string {
  const alphabet = ['a', 'é', '漢', '😀', '"', '\\', '\n', ' ', 'ü'];
  let s = '';
  for (let i = 0; s.length < 200_000; i++) s += alphabet[i % alphabet.length]!.repeat(1 + (i % 5));
  return s;
}

const faces = {
  stdio: async () => connectStdioClient(stdioGatewayParams(config)),
  http: async () => connectHttpClient((await startGateway(config)).url),
};

describe.each(Object.keys(faces) as (keyof typeof faces)[])('large answers over %s', (face) => {
  let client: Client;
  beforeAll(async () => {
    client = await faces[face]();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('arrive exactly as the server sent them', async () => {
    const text = bigText();
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * 65536);
    const results = await Promise.all([0, 1, 2, 3].map((k) => client.callTool({ name: 'echo__echo', arguments: { text: text.slice(k) } })));
    results.forEach((r, k) => {
      expect((r.content as { text: string }[])[0]!.text).toBe(text.slice(k));
    });
  });

  it('arrive exactly after progress notifications (an SSE stream over HTTP)', async () => {
    const text = bigText();
    const steps: number[] = [];
    const r = await client.callTool({ name: 'live__progress', arguments: { steps: 2, text } }, undefined, { onprogress: (p) => steps.push(p.progress) });
    expect(steps).toEqual([1, 2]);
    expect((r.content as { text: string }[])[0]!.text).toBe(text);
  });
});

// The official SDK's HTTP server answers each POST with an SSE stream; the legacy one sends every
// answer on its GET stream.
describe.each([
  ['Streamable HTTP', false],
  ['legacy HTTP+SSE', true],
] as const)('large answers from a remote server over %s (SSE events)', (_label, legacy) => {
  let client: Client;
  beforeAll(async () => {
    const remote = await startHttpFixture({ legacy });
    client = await connectStdioClient(stdioGatewayParams(yamlServers([httpServer('far', remote.url, { transport: legacy ? 'sse' : 'streamable-http' })])));
  });
  afterAll(async () => {
    await client?.close();
  });

  it('arrive exactly as the server sent them', async () => {
    const text = bigText();
    const results = await Promise.all([0, 1, 2].map((k) => client.callTool({ name: 'far__echo', arguments: { text: text.slice(k) } })));
    results.forEach((r, k) => {
      expect((r.content as { text: string }[])[0]!.text).toBe(text.slice(k));
    });
  });
});
