// Any client with any server: the official SDK v1 client (2025-11-25), the SDK v2 client pinned
// to 2026-07-28 and in 'auto' mode, each calling through one gateway a 2025 server and a
// 2026-07-28-only server (SDK v2) — a plain call and a call whose server asks the user a question.

import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';
import { connectModernHttp } from '../helpers/modern-client.js';
import { modernServerCommand } from '../helpers/modern-fixture.js';

afterAll(cleanup);

interface AnyClient {
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  asked: string[];
  close(): Promise<void>;
}

const CLIENTS: Array<{ label: string; connect(url: string): Promise<AnyClient> }> = [
  {
    label: 'SDK v1 client (2025-11-25)',
    async connect(url) {
      const asked: string[] = [];
      const client = await connectHttpClient(url, {
        capabilities: { elicitation: {} },
        setup: (c) => c.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req.params.message), { action: 'accept', content: { name: 'Ada' } })),
      });
      return { call: (name, args = {}) => client.callTool({ name, arguments: args }), asked, close: () => client.close() };
    },
  },
  ...(['modern', 'auto'] as const).map((mode) => ({
    label: `SDK v2 client, ${mode === 'modern' ? 'pinned to 2026-07-28' : "'auto'"}`,
    async connect(url: string) {
      const { client, asked } = await connectModernHttp(url, { mode, capabilities: { elicitation: {} }, elicitContent: { name: 'Ada' } });
      return {
        call: (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }),
        get asked() {
          return asked.map((a) => (a.params as { message: string }).message);
        },
        close: () => client.close(),
      };
    },
  })),
];

const text = (r: any) => r.content?.[0]?.text;

describe.each(CLIENTS)('$label through the gateway', ({ connect }) => {
  let gw: HttpGateway;
  let client: AnyClient;
  beforeAll(async () => {
    gw = await startGateway(yamlServers([fixtureServer('old', 'interactive'), fixtureServer('echo', 'echo'), { name: 'new', ...modernServerCommand({ modernOnly: true }) }]));
    client = await connect(gw.url);
  });
  afterAll(async () => {
    await client?.close();
    await gw?.stop();
  });

  it('calls a tool of a 2025 server and of a 2026-07-28 server', async () => {
    expect(text(await client.call('echo__echo', { text: 'hi' }))).toMatch(/hi/);
    expect(text(await client.call('new__echo', { text: 'hi' }))).toBe('hi');
  });

  it("answers a 2025 server's elicitation request", async () => {
    const before = client.asked.length;
    expect(text(await client.call('old__ask_elicitation', {}))).toMatch(/^elicited: \{"action":"accept","content":\{"name":"Ada"\}\}$/);
    expect(client.asked.length).toBe(before + 1);
  });

  it("answers a 2026-07-28 server's input round", async () => {
    const before = client.asked.length;
    expect(text(await client.call('new__ask_name'))).toBe('Hello, Ada!');
    expect(client.asked.slice(before)).toEqual(['What is your name?']);
  });
});
