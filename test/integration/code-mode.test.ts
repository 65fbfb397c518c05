// Code mode through the built gateway: run_code over stdio and HTTP, for a client of each era (the
// official SDK v1 client, 2025-11-25; the SDK v2 client pinned to 2026-07-28), calling a 2025
// server and a 2026-07-28 one: nested calls, a nested call that asks the user (elicitation, or
// its input round), progress relayed as the run's, cancellation and a limit reaching the server.
// Then the rules of a direct call (a profile's denied tools, validation before the server is
// called, the audit log, search_tools' signatures, run_code's description) and `switchboard run`.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, connectStdioClient, fixtureServer, runCli, startGateway, stdioGatewayParams, stdioStderr, yamlServers } from '../helpers/index.js';
import { connectStatelessHttp, connectStatelessStdio } from '../helpers/stateless-client.js';
import { statelessServerCommand } from '../helpers/stateless-fixture.js';

afterAll(cleanup);

type Face = 'http' | 'stdio';

interface CodeClient {
  tools(): Promise<{ name: string; description?: string }[]>;
  call(name: string, args: Record<string, unknown>, options?: { onprogress?: (p: { progress: number; message?: string }) => void; signal?: AbortSignal }): Promise<any>;
  /** The messages of the questions the client was asked. */
  asked: string[];
  /** A line of the gateway's stderr (servers' stderr included). */
  stderr(re: RegExp): Promise<string>;
  close(): Promise<void>;
}

const SERVERS = [fixtureServer('old', 'interactive'), fixtureServer('echo', 'echo', ['--log-calls']), { name: 'new', ...statelessServerCommand({ modernOnly: true }) }];
const YAML = yamlServers(SERVERS, { catalog: { mode: 'code' } });

const CLIENTS: { label: string; connect(face: Face, yaml: string): Promise<CodeClient> }[] = [
  {
    label: 'SDK v1 client (2025-11-25)',
    async connect(face, yaml) {
      const asked: string[] = [];
      const options = {
        capabilities: { elicitation: {} },
        setup: (c: any) => c.setRequestHandler(ElicitRequestSchema, async (req: any) => (asked.push(req.params.message), { action: 'accept', content: { name: 'Ada' } })),
      };
      let stderr: (re: RegExp) => Promise<string>;
      let client: Awaited<ReturnType<typeof connectHttpClient>>;
      if (face === 'http') {
        const gw = await startGateway(yaml);
        client = await connectHttpClient(gw.url, options);
        stderr = (re) => gw.waitForStderr(re);
      } else {
        client = await connectStdioClient(stdioGatewayParams(yaml), options);
        stderr = (re) => stdioStderr(client).waitForLine(re);
      }
      return {
        tools: async () => (await client.listTools()).tools,
        call: (name, args, o = {}) => client.callTool({ name, arguments: args }, undefined, { ...o, timeout: 30_000 }),
        asked,
        stderr,
        close: () => client.close(),
      };
    },
  },
  {
    label: 'SDK v2 client pinned to 2026-07-28',
    async connect(face, yaml) {
      let modern: Awaited<ReturnType<typeof connectStatelessHttp>>;
      let stderr: (re: RegExp) => Promise<string>;
      if (face === 'http') {
        const gw = await startGateway(yaml);
        modern = await connectStatelessHttp(gw.url, { capabilities: { elicitation: {} }, elicitContent: { name: 'Ada' } });
        stderr = (re) => gw.waitForStderr(re);
      } else {
        modern = await connectStatelessStdio(stdioGatewayParams(yaml), { capabilities: { elicitation: {} }, elicitContent: { name: 'Ada' } });
        stderr = (re) => modern.stderr!.waitForLine(re);
      }
      const { client, asked } = modern;
      return {
        tools: async () => (await client.listTools()).tools,
        call: (name, args, o = {}) => client.callTool({ name, arguments: args }, { ...o, timeout: 30_000 }),
        get asked() {
          return asked.map((a) => (a.params as { message: string }).message);
        },
        stderr,
        close: () => client.close(),
      };
    },
  },
];

const text = (r: any) => r.content?.[0]?.text as string;

describe.each<Face>(['http', 'stdio'])('run_code over %s', (face) => {
  describe.each(CLIENTS)('for a $label', ({ connect }) => {
    let client: CodeClient;
    beforeAll(async () => {
      client = await connect(face, YAML);
    });
    afterAll(() => client?.close());

    it('lists run_code and search_tools, with the declarations of every tool in run_code’s description', async () => {
      const tools = await client.tools();
      expect(tools.map((t) => t.name)).toEqual(['run_code', 'search_tools']);
      const description = tools[0]!.description!;
      expect(description).toMatch(/declare const tools: \{/);
      expect(description).toMatch(/ask_elicitation\(args\?/);
      expect(description).toMatch(/Limits: 30 s per run, 64 MiB of memory, 100 tool calls per run/);
    });

    it('runs a script that calls a 2025 server and a 2026-07-28 server, and answers its result, console lines and call count', async () => {
      const r = await client.call('run_code', {
        code: "const a = await tools.echo.echo({ text: 'hi' });\nconst b = await tools.new.echo({ text: 'there' });\nconsole.log('both done');\nreturn { a, b };",
      });
      expect(r.isError, text(r)).toBeFalsy();
      expect(r.structuredContent).toEqual({ result: { a: 'hi', b: 'there' }, logs: ['both done'], calls: 2 });
      expect(text(r)).toBe('{"a":"hi","b":"there"}\n\nConsole:\nboth done');
    });

    it("relays a nested call's question to the user, and the script goes on with the answer", async () => {
      const before = client.asked.length;
      const r = await client.call('run_code', { code: 'const a = await tools.old.ask_elicitation({});\nconst b = await tools.new.ask_name({});\nreturn [a, b];' });
      expect(r.structuredContent.result).toEqual(['elicited: {"action":"accept","content":{"name":"Ada"}}', 'Hello, Ada!']);
      expect(client.asked.length).toBe(before + 2);
    });

    it("relays nested calls' progress as the run's, a count that only grows", async () => {
      const seen: { progress: number; message?: string }[] = [];
      // The 2025 fixture pauses after its last step: an SDK client drops progress it reads in one chunk with the result.
      const r = await client.call('run_code', { code: 'await tools.new.progress({ steps: 2 });\nreturn await tools.old.progress({ steps: 3 });' }, { onprogress: (p) => void seen.push(p) });
      expect(r.isError).toBeFalsy();
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
      expect(seen.at(-1)!.message).toBe('old.progress: step 3');
    });

    it("a failed script is a tool error with its kind, message and line; a server's error is an McpError the script may catch", async () => {
      const caught = await client.call('run_code', {
        code: 'try {\n  await tools.old.task_only({});\n} catch (e) {\n  return { name: e.name, code: e.code, server: e.data.server, tool: e.data.tool, message: e.message };\n}',
      });
      expect(caught.structuredContent.result).toEqual({ name: 'McpError', code: -32602, server: 'old', tool: 'task_only', message: 'task_only runs only as a task' });
      const failed = await client.call('run_code', { code: 'const x = 1;\nawait tools.old.task_only({});' });
      expect(failed.isError).toBe(true);
      expect(failed.structuredContent.error).toMatchObject({ kind: 'exception', name: 'McpError', line: 2, code: -32602, data: { server: 'old' } });
      expect(text(failed)).toBe('The script failed (exception): McpError: task_only runs only as a task (line 2)');
    });

    it('cancelling run_code cancels its nested call on the server', async () => {
      const ac = new AbortController();
      const run = client.call('run_code', { code: 'return await tools.old.wait_cancel({});' }, { signal: ac.signal }).catch((e: unknown) => e);
      await client.stderr(/waiting id=/);
      ac.abort();
      await run;
      await client.stderr(/cancelled id=/);
    });
  });
});

describe('a run that hits a limit', () => {
  it('ends its nested calls (the server hears notifications/cancelled), and an endless loop ends too', async () => {
    const gw = await startGateway(yamlServers(SERVERS, { catalog: { mode: 'code' }, codeMode: { wallTime: '1s' } }));
    const client = await connectHttpClient(gw.url);
    const r: any = await client.callTool({ name: 'run_code', arguments: { code: 'return await tools.old.wait_cancel({});' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent.error).toMatchObject({ kind: 'timeout', message: 'the run took longer than 1000 ms (limit codeMode.wallTime)' });
    await gw.waitForStderr(/cancelled id=/);
    const loop: any = await client.callTool({ name: 'run_code', arguments: { code: 'while (true) {}' } });
    expect(loop.structuredContent.error.kind).toBe('slice');
    await client.close();
  });

  it('ends with its session (DELETE) and with the gateway (shutdown), and so do its nested calls', async () => {
    const gw = await startGateway(yamlServers(SERVERS, { catalog: { mode: 'code' }, limits: { shutdownGrace: '300ms' } }));
    const run = async () => {
      const client = await connectHttpClient(gw.url);
      void client.callTool({ name: 'run_code', arguments: { code: 'return await tools.old.wait_cancel({});' } }).catch(() => undefined);
      return client;
    };
    const client = await run();
    const first = /waiting id=(\d+)/.exec(await gw.waitForStderr(/waiting id=\d+/))![1];
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await gw.waitForStderr(new RegExp(`cancelled id=${first}\\b`));
    await run();
    const second = /waiting id=(\d+)/.exec(await gw.waitForStderr(new RegExp(`waiting id=(?!${first}\\b)\\d+`)))![1];
    // Shutdown waits shutdownGrace for calls in flight, then ends the sessions, their runs and their calls.
    await gw.stop();
    expect(gw.stderrLines.some((l) => new RegExp(`cancelled id=${second}\\b`).test(l))).toBe(true);
  });
});

describe("nested calls hold the session's and the principal's calls in flight", () => {
  const code = "const all = await Promise.allSettled([1, 2, 3, 4].map(() => tools.new.sleep({ ms: 400 })));\nreturn all.map((r) => (r.status === 'fulfilled' ? 'ok' : r.reason.data.limit));";
  it.each([
    ['session', { maxCallsPerSession: 3 }],
    ['principal', { perPrincipal: { callsInFlight: 3 } }],
  ])('past the %s limit a nested call is refused, as a request would be', async (limit, limits) => {
    const gw = await startGateway(yamlServers(SERVERS, { catalog: { mode: 'code' }, limits }));
    const client = await connectHttpClient(gw.url);
    const r: any = await client.callTool({ name: 'run_code', arguments: { code } });
    // run_code holds one itself: two of the four go, two are refused at once.
    expect([...r.structuredContent.result].sort()).toEqual(['ok', 'ok', limit, limit].sort());
    await client.close();
  });
});

describe('runs at once', () => {
  it('past codeMode.maxRuns a run is refused at once, and the slot comes back when a run ends', async () => {
    const gw = await startGateway(yamlServers(SERVERS, { catalog: { mode: 'code' }, codeMode: { maxRuns: 1 } }));
    const client = await connectHttpClient(gw.url);
    const ac = new AbortController();
    const first = client.callTool({ name: 'run_code', arguments: { code: 'return await tools.old.wait_cancel({});' } }, undefined, { signal: ac.signal }).catch((e: unknown) => e);
    await gw.waitForStderr(/waiting id=/);
    // A gateway's limit is HTTP 503, with the JSON-RPC error in the body.
    const refused = await client.callTool({ name: 'run_code', arguments: { code: 'return 1;' } }).catch((e: any) => e);
    expect(refused.code).toBe(503);
    expect(refused.message).toMatch(/the gateway already runs 1 scripts \(codeMode\.maxRuns\)/);
    ac.abort();
    await first;
    await gw.waitForStderr(/cancelled id=/);
    const again: any = await client.callTool({ name: 'run_code', arguments: { code: 'return 1;' } });
    expect(again.structuredContent.result).toBe(1);
    await client.close();
  });
});

describe('the rules of a direct call', () => {
  const auditLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'switchboard-code-')), 'audit.jsonl');
  const yaml = yamlServers(SERVERS, {
    catalog: { mode: 'code' },
    clients: [
      { name: 'small', token: 'small-token', tools: { deny: ['echo__add', 'new__*'] } },
      { name: 'tight', token: 'tight-token', tools: { allow: ['echo__*'] }, catalog: { codeBudget: 0 } },
    ],
    sanitize: { auditLog },
  });
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway(yaml);
  });
  const as = (token: string) => connectHttpClient(gw.url, { headers: { Authorization: `Bearer ${token}` } });

  it("a tool the profile denies, or another profile's, is not there; a forged name is nothing", async () => {
    const client = await as('small-token');
    const r: any = await client.callTool({
      name: 'run_code',
      arguments: {
        code: [
          'const out = { add: typeof tools.echo.add, echo: typeof tools.echo.echo, news: typeof tools.new, forged: typeof tools["echo__echo"], proto: typeof tools.__proto__ };',
          'try { await tools.echo.add({ a: 1, b: 2 }); } catch (e) { out.call = e.name; }',
          'try { await tools.describe("echo.add"); } catch (e) { out.describe = [e.name, e.code]; }',
          'try { await tools.describe("new.echo"); } catch (e) { out.other = e.code; }',
          'return out;',
        ].join('\n'),
      },
    });
    expect(r.structuredContent.result).toEqual({
      add: 'undefined',
      echo: 'function',
      news: 'undefined',
      forged: 'undefined',
      proto: 'undefined',
      call: 'TypeError',
      describe: ['McpError', -32602],
      other: -32602,
    });
    await client.close();
  });

  it("search_tools answers each tool's signature; past codeBudget run_code's description sends the model to search", async () => {
    const client = await as('tight-token');
    const [run] = (await client.listTools()).tools;
    expect(run!.description).toMatch(/The tools are not listed here/);
    expect(run!.description).not.toMatch(/declare const tools/);
    const r: any = await client.callTool({ name: 'search_tools', arguments: { query: 'add two numbers' } });
    expect(r.structuredContent.tools[0]).toMatchObject({ name: 'echo__add', server: 'echo', signature: 'tools.echo.add(args: {\n  a: number;\n  b: number;\n}): Promise<unknown>;' });
    expect(text(r)).toMatch(/tools\.echo\.add\(args: \{/);
    await client.close();
  });

  it('refuses arguments that do not match the schema before the server is called, and audits every nested call', async () => {
    const client = await as('small-token');
    const r: any = await client.callTool({
      name: 'run_code',
      arguments: { code: "let refused;\ntry { await tools.echo.echo({ text: 5 }); } catch (e) { refused = [e.code, e.message]; }\nreturn [refused, await tools.echo.echo({ text: 'marker-after' })];" },
    });
    expect(r.structuredContent.result).toEqual([[-32602, 'Invalid arguments for tools.echo.echo: args.text: must be string, got integer'], 'marker-after']);
    await gw.waitForStderr(/echo saw echo .*marker-after/);
    // The server saw the second call only.
    expect(gw.stderrLines.filter((l) => /echo saw echo/.test(l))).toHaveLength(1);
    await client.close();
    // Stopped: the audit log is flushed (this test is the last to use this gateway).
    await gw.stop();
    const entries = readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.kind === 'code');
    expect(entries.map((e) => [e.server, e.item, e.change])).toEqual([
      ['echo', 'echo', 'failed'],
      ['echo', 'echo', 'called'],
    ]);
    expect(entries[0].why).toMatch(/client small\), call 1: -32602 Invalid arguments/);
  });
});

describe('switchboard run', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-run-'));
  const script = (name: string, code: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, code);
    return file;
  };
  const yaml = yamlServers([fixtureServer('echo', 'echo')], { clients: [{ name: 'small', token: 'small-token', tools: { deny: ['echo__add'] } }] });

  it('prints the result as JSON on stdout and the console on stderr, whatever catalog.mode says', async () => {
    const r = await runCli(['run', script('ok.js', "console.log('adding');\nreturn { sum: await tools.echo.add({ a: 2, b: 3 }) };")], yaml);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sum: 5 });
    expect(r.stderr).toMatch(/^adding$/m);
  });

  it('exits 1 with the error on stderr when the script fails, and runs as the --client profile', async () => {
    const failed = await runCli(['run', script('bad.js', 'const x = 1;\nthrow new Error("no luck");')], yaml);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/The script failed \(exception\): Error: no luck \(line 2\)/);
    const small = await runCli(['run', script('small.js', 'return typeof tools.echo.add;'), '--client', 'small'], yaml);
    expect(JSON.parse(small.stdout)).toBe('undefined');
  });
});
