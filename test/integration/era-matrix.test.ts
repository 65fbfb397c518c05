// Any client with any server: the official SDK v1 client (2025-11-25), the SDK v2 client pinned
// to 2026-07-28 and in 'auto' mode, each calling through one gateway a 2025 server
// (interactive.mjs) and a 2026-07-28-only server (SDK v2, modern-server.mjs --modern-only): tools,
// a question to the user, progress, logging at the client's level, resource updates the client
// subscribed to, and cancellation — every cell of the matrix of eras.

import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';
import { connectStatelessHttp, logLevelMeta } from '../helpers/stateless-client.js';
import { statelessServerCommand } from '../helpers/stateless-fixture.js';

afterAll(cleanup);

interface CallOptions {
  onprogress?: (p: { progress: number }) => void;
  signal?: AbortSignal;
}

/** What the test does with a client, whatever its SDK and era. */
interface AnyClient {
  call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<any>;
  /** Log lines received (data), from now on at `level` and above. */
  logsAt(level: string): Promise<string[]>;
  /** Subscribes to `uri` the client's way; `updated` resolves on the next resources/updated for it. */
  watch(uri: string): Promise<{ updated: Promise<void> }>;
  asked: string[];
  close(): Promise<void>;
}

const CLIENTS: Array<{ label: string; connect(url: string): Promise<AnyClient> }> = [
  {
    label: 'SDK v1 client (2025-11-25)',
    async connect(url) {
      const asked: string[] = [];
      const logs: string[] = [];
      const updated = new Map<string, () => void>();
      const client: V1Client = await connectHttpClient(url, {
        capabilities: { elicitation: {} },
        setup: (c) => {
          c.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req.params.message), { action: 'accept', content: { name: 'Ada' } }));
          c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logs.push(String(n.params.data)));
          c.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => updated.get(n.params.uri)?.());
        },
      });
      return {
        call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args }, undefined, options),
        async logsAt(level) {
          await client.setLoggingLevel(level as 'warning');
          return logs;
        },
        async watch(uri) {
          const seen = new Promise<void>((resolve) => updated.set(uri, resolve));
          await client.subscribeResource({ uri });
          return { updated: seen };
        },
        asked,
        close: () => client.close(),
      };
    },
  },
  ...(['modern', 'auto'] as const).map((mode) => ({
    label: `SDK v2 client, ${mode === 'modern' ? 'pinned to 2026-07-28' : "'auto'"}`,
    async connect(url: string): Promise<AnyClient> {
      const { client, asked } = await connectStatelessHttp(url, { mode, capabilities: { elicitation: {} }, elicitContent: { name: 'Ada' } });
      const logs: string[] = [];
      client.setNotificationHandler('notifications/message', async (n) => void logs.push(String((n.params as { data: unknown }).data)));
      let level: string | undefined;
      const updated = new Map<string, () => void>();
      client.setNotificationHandler('notifications/resources/updated', async (n) => updated.get((n.params as { uri: string }).uri)?.());
      return {
        // The stateless revision's log level travels on each request.
        call: (name, args = {}, options = {}) => client.callTool({ name, arguments: args, ...(level ? { _meta: logLevelMeta(level as 'warning') } : {}) }, options),
        async logsAt(l) {
          level = l;
          return logs;
        },
        async watch(uri) {
          const seen = new Promise<void>((resolve) => updated.set(uri, resolve));
          await client.listen({ resourceSubscriptions: [uri] });
          return { updated: seen };
        },
        get asked() {
          return asked.map((a) => (a.params as { message: string }).message);
        },
        close: () => client.close(),
      };
    },
  })),
];

/** The same behaviours, as each server offers them. */
const SERVERS = [
  {
    label: 'a 2025 server',
    echo: ['echo__echo', { text: 'hi' }, /hi/],
    ask: ['old__ask_elicitation', /^elicited: \{"action":"accept","content":\{"name":"Ada"\}\}$/],
    progress: 'old__progress',
    logs: {
      calls: [
        ['old__log', { level: 'error', message: 'wanted' }],
        ['old__log', { level: 'info', message: 'too quiet' }],
      ],
      expected: ['wanted'],
    },
    counter: { uri: 'mem://counter', bump: 'old__bump' },
    cancel: { tool: 'old__wait_cancel', args: {}, started: /waiting id=/, cancelled: /cancelled id=/ },
  },
  {
    label: 'a 2026-07-28 server',
    echo: ['new__echo', { text: 'hi' }, /^hi$/],
    ask: ['new__ask_name', /^Hello, Ada!$/],
    progress: 'new__progress',
    logs: { calls: [['new__log_levels', {}]], expected: ['a warning message', 'a error message'] },
    counter: { uri: 'fixture://counter', bump: 'new__update_counter' },
    cancel: { tool: 'new__sleep', args: { ms: 60_000 }, started: /sleep started/, cancelled: /sleep cancelled/ },
  },
] as const;

const text = (r: any) => r.content?.[0]?.text;

describe.each(CLIENTS)('$label through the gateway', ({ connect }) => {
  let gw: HttpGateway;
  let client: AnyClient;
  beforeAll(async () => {
    gw = await startGateway(yamlServers([fixtureServer('old', 'interactive'), fixtureServer('echo', 'echo'), { name: 'new', ...statelessServerCommand({ modernOnly: true }) }]));
    client = await connect(gw.url);
  });
  afterAll(async () => {
    await client?.close();
    await gw?.stop();
  });

  describe.each(SERVERS)('to $label', (server) => {
    it('calls a tool', async () => {
      const [name, args, expected] = server.echo;
      expect(text(await client.call(name, args))).toMatch(expected);
    });

    it("answers the server's question to the user", async () => {
      const before = client.asked.length;
      const [name, expected] = server.ask;
      expect(text(await client.call(name))).toMatch(expected);
      expect(client.asked.length).toBe(before + 1);
    });

    it('gets progress', async () => {
      const seen: number[] = [];
      await client.call(server.progress, { steps: 3 }, { onprogress: (p) => void seen.push(p.progress) });
      expect(seen).toEqual([1, 2, 3]);
    });

    it('gets log lines at its level only', async () => {
      const logs = await client.logsAt('warning');
      const before = logs.length;
      for (const [name, args] of server.logs.calls) await client.call(name, args);
      // Log lines go out before the call's answer, on the same channel.
      expect(logs.slice(before)).toEqual(server.logs.expected);
    });

    it('hears of the resource it subscribed to', async () => {
      const { updated } = await client.watch(server.counter.uri);
      await client.call(server.counter.bump);
      await updated;
    });

    it('cancels a call on the server', async () => {
      const ac = new AbortController();
      const call = client.call(server.cancel.tool, server.cancel.args, { signal: ac.signal }).catch((e: unknown) => e);
      await gw.waitForStderr(server.cancel.started);
      ac.abort();
      await call;
      await gw.waitForStderr(server.cancel.cancelled);
    });
  });
});
