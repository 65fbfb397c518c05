// The outbound client against the 2026-07-28 fixture (test/fixtures/servers/modern-server.mjs,
// built on the official SDK v2) as a real process: over stdio (dual-era and --modern-only) and
// Streamable HTTP (dual-era and --modern-only), a ServerConnection finds the era, calls with the
// envelope, passes input_required results and requestState through untouched, gets list changes
// and resource updates on its listen stream, and cancels. Then the gateway CLI serves the fixture
// to a client of the stateful era.

import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayError } from '../../src/errors.js';
import { Cancellation } from '../../src/jsonrpc/cancellation.js';
import { isRawResponse, type RawResponse } from '../../src/jsonrpc/raw.js';
import { ServerConnection } from '../../src/outbound/server-connection.js';
import type { JsonRpcNotification } from '../../src/protocol/jsonrpc.js';
import { cleanup, connectHttpClient, httpServer, startGateway, yamlServers } from '../helpers/index.js';
import { statelessServerCommand, startStatelessHttpFixture } from '../helpers/stateless-fixture.js';
import { Conditions, gatewayConfig } from '../unit/outbound/connection-harness.js';
import { textOf } from '../../src/jsonrpc/ndjson.js';

afterAll(cleanup);

type Owner = string;

interface Subject {
  label: string;
  /**
   * The server entry (YAML keys), and for stdio a way to wait for a line of the fixture's stderr
   * (which reaches the connection's logger). Over HTTP a cancelled call may be cancelled before
   * the server saw it, so nothing there is waited for.
   */
  start(log: ReturnType<typeof capturingLogger>): Promise<{ entry: Record<string, unknown>; stderrHas?(re: RegExp): Promise<void> }>;
}

/** A logger whose lines (the stdio child's stderr among them) can be waited for. */
function capturingLogger() {
  const lines: string[] = [];
  const conditions = new Conditions();
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      conditions.check();
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), has: (re: RegExp) => conditions.until(() => lines.some((l) => re.test(l))) };
}

const subjects: Subject[] = [
  { label: 'stdio, dual-era', start: async (log) => ({ entry: statelessServerCommand(), stderrHas: log.has }) },
  { label: 'stdio, --modern-only', start: async (log) => ({ entry: statelessServerCommand({ modernOnly: true }), stderrHas: log.has }) },
  ...[false, true].map((modernOnly) => ({
    label: `Streamable HTTP, ${modernOnly ? '--modern-only' : 'dual-era'}`,
    start: async () => ({ entry: { url: (await startStatelessHttpFixture({ modernOnly })).url } }),
  })),
];

const text = (answer: any) => answer.result?.content?.[0]?.text;

describe.each(subjects)('ServerConnection and the modern fixture: $label', (subject) => {
  async function connect() {
    const log = capturingLogger();
    const { entry, stderrHas } = await subject.start(log);
    const config = gatewayConfig({ servers: [{ name: 'modern', ...entry }] }).servers[0]!;
    const notes: Array<{ n: JsonRpcNotification; owner?: Owner }> = [];
    const conditions = new Conditions();
    const connection = new ServerConnection<Owner>(
      config,
      log.logger,
      {
        onNotification: (_c, n, owner) => (notes.push({ n, owner }), conditions.check()),
        onChange: () => conditions.check(),
      },
      { clientCapabilities: { elicitation: { form: {} } } },
    );
    await connection.connect();
    return { connection, notes, until: (pred: () => boolean) => conditions.until(pred), stderrHas };
  }

  it('is modern, calls with the envelope, and passes MRTR rounds, logs, progress and raw answers through', async () => {
    const { connection, notes, until } = await connect();
    try {
      expect(connection).toMatchObject({ state: 'ready', era: 'stateless', protocolVersion: '2026-07-28', serverInfo: { name: 'modern-fixture' } });
      expect(connection.lists.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['whoami', 'echo', 'ask_name', 'two_step']));
      expect(text(await connection.forward('tools/call', { name: 'whoami', arguments: {} }))).toBe('modern-fixture (modern)');

      const raw = await connection.forward('tools/call', { name: 'echo', arguments: { text: 'as it is' } }, { raw: true });
      expect(isRawResponse(raw)).toBe(true);
      expect(JSON.parse(textOf((raw as RawResponse).chunks)).result.content[0].text).toBe('as it is');

      // Two rounds and a sealed requestState: each round goes out as given, each answer comes back as sent.
      const r1 = (await connection.forward('tools/call', { name: 'two_step', arguments: {} })) as any;
      expect(r1.result).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
      const r2 = (await connection.forward('tools/call', { name: 'two_step', arguments: {}, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } })) as any;
      expect(r2.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
      const args = { name: 'two_step', arguments: {}, inputResponses: { color: { action: 'accept', content: { color: 'green' } } }, requestState: r2.result.requestState };
      expect(text(await connection.forward('tools/call', args))).toBe('Ada likes green');

      // The log level of this request (and only its lines, for its owner).
      await connection.forward('tools/call', { name: 'log_levels', arguments: {} }, { owner: 'req-logs', envelope: { logLevel: 'warning' } });
      await until(() => notes.filter((x) => x.n.method === 'notifications/message').length >= 2);
      const logs = notes.filter((x) => x.n.method === 'notifications/message');
      expect(logs.map((x) => x.n.params?.level)).toEqual(['warning', 'error']);
      expect(logs.every((x) => x.owner === 'req-logs')).toBe(true);
      // No level named: none sent.
      notes.length = 0;
      await connection.forward('tools/call', { name: 'log_levels', arguments: {} });
      await connection.forward('tools/call', { name: 'whoami', arguments: {} });
      expect(notes.filter((x) => x.n.method === 'notifications/message')).toEqual([]);

      const progress: number[] = [];
      expect(text(await connection.forward('tools/call', { name: 'progress', arguments: { steps: 3 } }, { onProgress: (p) => progress.push(p.progress) }))).toBe('done 3');
      expect(progress).toEqual([1, 2, 3]);
    } finally {
      await connection.close();
    }
  });

  it('hears list changes and subscribed resource updates on its listen stream, and cancels', async () => {
    const { connection, notes, until, stderrHas } = await connect();
    try {
      await connection.forward('tools/call', { name: 'toggle_extra_tool', arguments: {} });
      await until(() => connection.lists.tools.some((t) => t.name === 'extra'));

      await connection.subscribe('fixture://counter');
      await connection.forward('tools/call', { name: 'update_counter', arguments: {} });
      await until(() => notes.some((x) => x.n.method === 'notifications/resources/updated'));
      expect(notes.find((x) => x.n.method === 'notifications/resources/updated')!.n.params).toEqual({ uri: 'fixture://counter' });
      await connection.unsubscribe('fixture://counter');

      const cancellation = new Cancellation();
      const sleeping = connection.forward('tools/call', { name: 'sleep', arguments: { ms: 60_000 } }, { cancellation }).catch((e: unknown) => e);
      // On stdio the server reads in order: once whoami is answered, the sleep has begun.
      await connection.forward('tools/call', { name: 'whoami', arguments: {} });
      cancellation.cancel();
      expect(await sleeping).toMatchObject({ code: 'CANCELLED' } satisfies Partial<GatewayError>);
      await stderrHas?.(/sleep cancelled/);
      expect(text(await connection.forward('tools/call', { name: 'whoami', arguments: {} }))).toBe('modern-fixture (modern)');
    } finally {
      await connection.close();
    }
  });
});

describe('the gateway serving the modern fixture to a client of the stateful era', () => {
  it('lists and calls its tools over stdio and HTTP servers alike', async () => {
    const http = await startStatelessHttpFixture({ name: 'modern-http' });
    const stdio = statelessServerCommand({ name: 'modern-stdio' });
    const gw = await startGateway(yamlServers([{ name: 'overstdio', ...stdio }, httpServer('overhttp', http.url)]));
    const client: Client = await connectHttpClient(gw.url);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['overstdio__whoami', 'overhttp__whoami', 'overhttp__echo']));
    const who = await client.callTool({ name: 'overstdio__whoami', arguments: {} });
    expect(who.content).toEqual([{ type: 'text', text: 'modern-stdio (modern)' }]);
    const echo = await client.callTool({ name: 'overhttp__echo', arguments: { text: 'through' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'through' }]);
    await client.close();
    await gw.stop();
  });
});
