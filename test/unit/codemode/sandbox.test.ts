// runScript's contract: results, errors with the script's own line, TypeScript, console lines,
// names that are not identifiers, describe/search, timers, and an abort from outside.

import { beforeEach, describe, expect, it } from 'vitest';
import { resetFairness } from '../../../src/codemode/fairness.js';
import { formatRunError, runScript } from '../../../src/codemode/sandbox.js';
import { testBindings } from './helpers.js';

describe('runScript', () => {
  // Each run's own limits, measured alone: no debt of the engine's share (fairness.ts) from the test before.
  beforeEach(resetFairness);

  it('runs the body of an async function: await, return, nested calls', async () => {
    const { bindings, calls } = testBindings();
    const code = `const a = await tools.files.read({ path: '/a' });
const b = await tools.files.echo({ n: 2 });
return { a: a.args.path, b: b.args.n }`;
    const r = await runScript(code, { bindings });
    expect(r.ok && r.value).toEqual({ a: '/a', b: 2 });
    expect(calls.map((c) => `${c.server}.${c.tool}`)).toEqual(['files.read', 'files.echo']);
    expect(r.calls.map((c) => [c.kind, c.server, c.tool, c.ok])).toEqual([
      ['tool', 'files', 'read', true],
      ['tool', 'files', 'echo', true],
    ]);
    expect(r.stats.calls).toBe(2);
  });

  it('returns null for a script that returns nothing', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const x = 1;', { bindings });
    expect(r.ok && r.json).toBe('null');
  });

  it('an uncaught error fails the run with its message and the script line', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const a = 1;\n\nthrow new RangeError("too far")', { bindings });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: 'exception', name: 'RangeError', message: 'too far', line: 3 });
    expect(formatRunError(r.error)).toBe('RangeError: too far (line 3)');
  });

  it('an error thrown after an await, inside a function, still names the script line', async () => {
    const { bindings } = testBindings();
    const code = 'async function step() {\n  await tools.files.echo({});\n  return null.x;\n}\nawait step();';
    const r = await runScript(code, { bindings });
    expect(!r.ok && r.error).toMatchObject({ kind: 'exception', name: 'TypeError', line: 3 });
  });

  it('an uncaught McpError from a nested call names the line of the call', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const x = 1;\nawait tools.guard.denied({});\nreturn x', { bindings });
    expect(!r.ok && r.error).toMatchObject({ kind: 'exception', name: 'McpError', code: -32602, line: 2, data: { server: 'guard', tool: 'denied' } });
  });

  it('arguments are validated against the schema before the server is called', async () => {
    const { bindings, calls } = testBindings();
    const r = await runScript('try { await tools.files.read({ path: 42 }) } catch (e) { return [e.code, e.message, e.data.problems] }', { bindings });
    expect(r.ok && r.value).toEqual([-32602, 'Invalid arguments for tools.files.read: args.path: must be string, got integer', ['args.path: must be string, got integer']]);
    const r2 = await runScript('try { await tools.files.read() } catch (e) { return e.message }', { bindings });
    expect(r2.ok && r2.value).toMatch(/missing required property "path"/);
    const r3 = await runScript('try { await tools.files.echo([1, 2]) } catch (e) { return e.message }', { bindings });
    expect(r3.ok && r3.value).toMatch(/must be an object/);
    const r4 = await runScript('const a = {};\na.self = a;\ntry { await tools.files.echo(a) } catch (e) { return [e.code, e.message] }', { bindings });
    expect(r4.ok && r4.value).toEqual([-32602, expect.stringMatching(/^arguments of tools.files.echo are not JSON-serialisable: /)]);
    expect(calls).toHaveLength(0);
  });

  it('a syntax error is reported with its line', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const a = 1;\nconst b = ;\nreturn a', { bindings });
    expect(!r.ok && r.error).toMatchObject({ kind: 'syntax', line: 2 });
  });

  it('accepts TypeScript: types are stripped, lines kept', async () => {
    const { bindings } = testBindings();
    const code = `interface Row { path: string; size?: number }
type Pair<T> = [T, T];
enum Mode { Read, Write }
const rows: Row[] = [{ path: '/a' }, { path: '/b', size: 2 }];
const pair: Pair<number> = [1, 2];
function first<T>(xs: T[]): T { return xs[0]! }
const r = (await tools.files.read({ path: first(rows).path })) as { args: { path: string } };
return { p: r.args.path, n: pair.length, m: Mode.Write, s: rows.map((x): number => x.size ?? 0) }`;
    const r = await runScript(code, { bindings });
    expect(r.ok && r.value).toEqual({ p: '/a', n: 2, m: 1, s: [0, 2] });
    expect(r.stats.transpiled).toBe(true);
    const thrown = await runScript('const n: number = 1;\n\nthrow new Error("at three")', { bindings });
    expect(!thrown.ok && thrown.error.line).toBe(3);
  });

  it('a TypeScript syntax error is reported where it is, not at the first type', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const a: number = 1;\nconst b: string = "x";\nconst c = (;\nreturn a', { bindings });
    expect(!r.ok && r.error).toMatchObject({ kind: 'syntax', line: 3 });
  });

  it('plain JavaScript never goes through the transpiler', async () => {
    const { bindings } = testBindings();
    const r = await runScript('const a = [1, 2];\nreturn a.map((x) => x * 2)', { bindings });
    expect(r.ok && r.stats.transpiled).toBe(false);
  });

  it('collects console.log/info/warn/error/debug beside the result', async () => {
    const { bindings } = testBindings();
    const code = `console.log('plain', 1, { a: 1 }, [2]);
console.info('info');
console.warn('warn');
console.error(new TypeError('bad'));
console.debug(undefined, null);
console.log('nul\\u0000inside');
return 'done'`;
    const r = await runScript(code, { bindings });
    expect(r.ok && r.value).toBe('done');
    expect(r.logs).toEqual([
      { level: 'log', text: 'plain 1 {"a":1} [2]' },
      { level: 'info', text: 'info' },
      { level: 'warn', text: 'warn' },
      { level: 'error', text: 'TypeError: bad' },
      { level: 'debug', text: 'undefined null' },
      { level: 'log', text: 'nul\u2400inside' },
    ]);
  });

  it('servers and tools whose names are not identifiers get safe names; the originals work too', async () => {
    const { bindings, calls } = testBindings();
    const code = `const a = await tools.my_server.get_file({ id: 1 });
const b = await tools['my-server']['get-file']({ id: 2 });
const d = await tools.describe('my-server.get-file');
return { same: tools.my_server === tools['my-server'], keys: Object.keys(tools), call: d.call, decl: d.declaration }`;
    const r = await runScript(code, { bindings });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ same: true, keys: ['files', 'guard', 'my_server', 'slow'], call: 'tools.my_server.get_file' });
    expect((r.value as { decl: string }).decl).toContain('get_file(args?: {');
    expect(calls.map((c) => c.args.id)).toEqual([1, 2]);
  });

  it('tools.describe answers with the declaration, schemas and what the host adds', async () => {
    const { bindings } = testBindings({ describe: async (server, tool) => ({ title: `${server}/${tool}`, call: 'forged' }) });
    const r = await runScript('return await tools.describe("tools.files.read")', { bindings });
    expect(r.ok && r.value).toMatchObject({ call: 'tools.files.read', server: 'files', tool: 'read', title: 'files/read', description: 'Reads a file.' });
  });

  it('tools.search without a search callback is an McpError, not a crash', async () => {
    const { bindings } = testBindings();
    const r = await runScript('try { await tools.search("x") } catch (e) { return e.code }', { bindings });
    expect(r.ok && r.value).toBe(-32601);
  });

  it('setTimeout waits on the host clock; a timer pending at the return never fires', async () => {
    const { bindings } = testBindings();
    const r = await runScript("let fired = false;\nawait new Promise((r) => setTimeout(r, 5));\nsetTimeout(() => console.log('late'), 10);\nreturn 'ok'", { bindings });
    expect(r.ok && r.value).toBe('ok');
    await new Promise((r) => setTimeout(r, 30));
    expect(r.logs).toEqual([]);
  });

  it('an abort from outside ends the run and the nested calls it has in flight', async () => {
    const { bindings, calls } = testBindings();
    const controller = new AbortController();
    const running = runScript('await Promise.all([tools.slow.wait({}), tools.slow.wait({})]);', { bindings, signal: controller.signal });
    while (calls.length < 2) await new Promise((r) => setImmediate(r));
    controller.abort();
    const r = await running;
    expect(!r.ok && r.error.kind).toBe('aborted');
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true]);
  });

  it('an abort that comes while the engine is being made still ends the run', async () => {
    const { bindings } = testBindings();
    const controller = new AbortController();
    const running = runScript('return 1', { bindings, signal: controller.signal });
    controller.abort();
    const r = await running;
    expect(!r.ok && r.error.kind).toBe('aborted');
  });

  it('an onLog listener that throws does not break the run', async () => {
    const { bindings } = testBindings();
    const r = await runScript('console.log("a");\nconsole.log("b");\nreturn 2', {
      bindings,
      onLog: () => {
        throw new Error('listener broke');
      },
    });
    expect(r.ok && r.value).toBe(2);
    expect(r.logs.map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('a call left in flight when the script returns is aborted', async () => {
    const { bindings, calls } = testBindings();
    const r = await runScript('tools.slow.wait({});\nreturn "left it"', { bindings });
    expect(r.ok && r.value).toBe('left it');
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('a script waiting on a promise nothing will settle ends at once, not at the wall time', async () => {
    const { bindings } = testBindings();
    const r = await runScript('await tools.files.echo({});\nawait new Promise(() => {});', { bindings, limits: { wallMs: 20_000 } });
    expect(!r.ok && r.error.kind).toBe('stalled');
    expect(r.stats.wallMs).toBeLessThan(10_000);
  });

  it('a value JSON cannot carry fails the run with kind "result"; a bigint becomes a string', async () => {
    const { bindings } = testBindings();
    const cyclic = await runScript('const a = {}; a.self = a; return a', { bindings });
    expect(!cyclic.ok && cyclic.error.kind).toBe('result');
    const big = await runScript('return { n: 12345678901234567890n }', { bindings });
    expect(big.ok && big.value).toEqual({ n: '12345678901234567890' });
  });

  it('a host answer that is not JSON becomes an McpError in the script', async () => {
    const { bindings } = testBindings({ call: async () => ({ n: 1n }) });
    const r = await runScript('try { await tools.files.echo({}) } catch (e) { return [e.code, /not JSON/.test(e.message)] }', { bindings });
    expect(r.ok && r.value).toEqual([-32603, true]);
  });
});
