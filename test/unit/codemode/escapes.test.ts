// Sandbox attacks: nothing of Node is reachable from inside, whatever route the script takes,
// and nothing it does to its own objects reaches the host's.

import { beforeEach, describe, expect, it } from 'vitest';
import { resetFairness } from '../../../src/codemode/fairness.js';
import { parseSafe } from '../../../src/codemode/output.js';
import { runScript } from '../../../src/codemode/sandbox.js';
import { testBindings } from './helpers.js';

async function value(code: string): Promise<unknown> {
  const { bindings } = testBindings();
  const r = await runScript(code, { bindings });
  if (!r.ok) throw new Error(`run failed: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

const NODE_NAMES = ['process', 'require', 'module', 'Buffer', 'fetch', 'setImmediate', 'queueMicrotask', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', '__sb_host', '__sb_config', '__sb_run'];

describe('code mode sandbox escapes', () => {
  // Each run's own limits, measured alone: no debt of the engine's share (fairness.ts) from the test before.
  beforeEach(resetFairness);

  it('constructor.constructor gives the sandbox Function, not the host one', async () => {
    const { bindings } = testBindings();
    const r = await runScript("return (function () {}).constructor.constructor('return process')()", { bindings });
    expect(!r.ok && r.error).toMatchObject({ kind: 'exception', name: 'ReferenceError', message: "'process' is not defined", line: 1 });
    expect(await value("return (function () {}).constructor.constructor('return typeof process + typeof require')()")).toBe('undefinedundefined');
    expect(await value("return tools.files.read.constructor('return typeof process')()")).toBe('undefined');
    expect(await value("return Object.getPrototypeOf(async function () {}).constructor('return typeof require')().then ? 'promise' : 'no'")).toBe('promise');
  });

  it('Function, eval and indirect eval see only the sandbox global', async () => {
    const code = `const g1 = Function('return this')();
const g2 = (0, eval)('this');
return [g1 === globalThis, g2 === globalThis, eval('typeof process'), typeof g1.require]`;
    expect(await value(code)).toEqual([true, true, 'undefined', 'undefined']);
  });

  it('globalThis holds no Node API and nothing the host put there', async () => {
    const names = (await value('return Object.getOwnPropertyNames(globalThis)')) as string[];
    for (const n of NODE_NAMES) expect(names, n).not.toContain(n);
    expect(names).toContain('tools');
    expect(await value(`return [${NODE_NAMES.map((n) => `typeof ${n}`).join(', ')}]`)).toEqual(NODE_NAMES.map((n) => (n === '__sb_run' ? 'undefined' : 'undefined')));
  });

  it('import() is refused', async () => {
    for (const spec of ['fs', 'node:fs', 'node:child_process', './x.js', 'data:text/javascript,export default 1']) {
      const v = await value(`try { await import(${JSON.stringify(spec)}); return 'imported' } catch (e) { return 'refused' }`);
      expect(v, spec).toBe('refused');
    }
  });

  it('prototype pollution inside stays inside: the host Object.prototype is unchanged', async () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const { bindings, calls } = testBindings();
    const code = `Object.prototype.polluted = 'yes';
Array.prototype.map = function () { return 'hijacked' };
JSON.parse = () => ({ forged: true });
await tools.files.echo(JSON.parse('{"\\u005f_proto__": {"polluted6": "yes"}}'));
const args = { id: 1, ['__proto__']: { polluted2: 'yes' } };
Object.defineProperty(args, '__proto__', { value: { polluted3: 'yes' }, enumerable: true });
await tools.files.echo(args);
return { ['__proto__']: { polluted4: 'yes' }, nested: [{ constructor: { prototype: { polluted5: 'yes' } } }] }`;
    const r = await runScript(code, { bindings });
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    const probe = {} as Record<string, unknown>;
    for (const k of ['polluted', 'polluted2', 'polluted3', 'polluted4', 'polluted5', 'polluted6']) expect(probe[k], k).toBeUndefined();
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(Object.getPrototypeOf(c.args)).toBe(Object.prototype);
      expect(Object.hasOwn(c.args, '__proto__')).toBe(false);
    }
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(Object.hasOwn(r.value, '__proto__')).toBe(false);
      expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    }
  });

  it('the host parses what crosses without __proto__ keys, however they are spelled', () => {
    for (const text of ['{"__proto__":{"x":1},"a":1}', '{"\\u005f_proto__":{"x":1},"a":1}', '{"a":{"__proto\\u005f_":{"x":1}}}']) {
      const v = parseSafe(text) as Record<string, unknown>;
      expect(JSON.stringify(v), text).not.toContain('proto');
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    }
  });

  it('a forged tool name or a tool of another profile is not callable', async () => {
    const { bindings, calls } = testBindings();
    const r1 = await runScript('return await tools.secret.drop({})', { bindings });
    expect(!r1.ok && r1.error.name).toBe('TypeError');
    const r2 = await runScript('try { await tools.describe("secret.drop") } catch (e) { return [e.name, e.code] }', { bindings });
    expect(r2.ok && r2.value).toEqual(['McpError', -32602]);
    const r3 = await runScript('tools.files.evil = () => 1; tools.other = {}; return [typeof tools.files.evil, typeof tools.other]', { bindings });
    expect(r3.ok && r3.value).toEqual(['undefined', 'undefined']);
    expect(calls).toHaveLength(0);
  });

  it('search results never name a tool the run may not call', async () => {
    const { bindings } = testBindings({
      search: async () => [
        { server: 'files', tool: 'read', score: 2 },
        { server: 'secret', tool: 'drop', score: 1 },
      ],
    });
    const r = await runScript('return await tools.search("read a file")', { bindings });
    expect(r.ok && r.value).toEqual([{ server: 'files', tool: 'read', score: 2, call: 'tools.files.read' }]);
  });

  it('a denied tool throws an McpError the script may catch', async () => {
    const code = `try { await tools.guard.denied({}) } catch (e) {
  return { isMcp: e instanceof McpError, name: e.name, code: e.code, message: e.message, server: e.data.server, tool: e.data.tool, reason: e.data.reason }
}`;
    expect(await value(code)).toEqual({ isMcp: true, name: 'McpError', code: -32602, message: 'Tool guard.denied is not allowed for this client', server: 'guard', tool: 'denied', reason: 'policy' });
  });

  it('each run starts from a fresh global', async () => {
    expect(await value('globalThis.leftover = 42; Object.prototype.leak = 1; return 1')).toBe(1);
    expect(await value('return [typeof leftover, ({}).leak]')).toEqual(['undefined', null]);
  });
});
