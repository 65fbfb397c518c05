// Every hard limit of a run ends it with its own error kind, and ends its nested calls.

import { beforeEach, describe, expect, it } from 'vitest';
import { resetFairness } from '../../../src/codemode/fairness.js';
import { runScript } from '../../../src/codemode/sandbox.js';
import { estimateTokens } from '../../../src/search/tokens.js';
import { testBindings } from './helpers.js';

describe('code mode limits', () => {
  // Each run's own limits, measured alone: no debt of the engine's share (fairness.ts) from the test before.
  beforeEach(resetFairness);

  it('an endless loop with no call in it ends by the wall time', async () => {
    const { bindings } = testBindings();
    const r = await runScript('while (true) {}', { bindings, limits: { wallMs: 300, sliceMs: 60_000 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('timeout');
  });

  it('a loop cannot catch the interrupt and go on', async () => {
    const { bindings } = testBindings();
    const code = 'let n = 0;\nfor (;;) { try { while (true) {} } catch (e) { n++ } }';
    const r = await runScript(code, { bindings, limits: { wallMs: 300, sliceMs: 60_000 } });
    expect(!r.ok && r.error.kind).toBe('timeout');
  });

  it('a loop that only awaits itself still ends by the wall time', async () => {
    const { bindings } = testBindings();
    const r = await runScript('for (;;) await null;', { bindings, limits: { wallMs: 300 } });
    expect(!r.ok && r.error.kind).toBe('timeout');
  });

  it('computing too long without awaiting ends by the slice limit, with advice', async () => {
    const { bindings } = testBindings();
    const r = await runScript('let x = 0;\nwhile (true) { x++ }', { bindings, limits: { wallMs: 30_000, sliceMs: 100 } });
    expect(!r.ok && r.error.kind).toBe('slice');
    if (!r.ok) expect(r.error.message).toMatch(/await/);
  });

  it('a regular expression that backtracks without end is interrupted too', async () => {
    const { bindings } = testBindings();
    const r = await runScript('return /(a+)+$/.test("a".repeat(40) + "!")', { bindings, limits: { sliceMs: 200 } });
    expect(!r.ok && r.error.kind).toBe('slice');
  });

  it('waiting on a call that never answers ends by the wall time and aborts the call', async () => {
    const { bindings, calls } = testBindings();
    const r = await runScript('await tools.slow.wait({});', { bindings, limits: { wallMs: 200 } });
    expect(!r.ok && r.error.kind).toBe('timeout');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('a memory bomb ends with kind "memory", within the limit', async () => {
    const { bindings } = testBindings();
    const limit = 32 * 1024 * 1024;
    for (const bomb of [
      'const a = [];\nwhile (true) a.push("x".repeat(100000) + a.length);',
      'const a = [];\nwhile (true) a.push(new Uint8Array(1000000));',
      'const a = [];\nwhile (true) a.push({ n: a.length, s: "y".repeat(200) + a.length });',
      // Out of memory here the engine may fail to make the error itself and throw a bare null.
      'const m = new Map();\nlet i = 0;\nwhile (true) m.set(i++, [i]);',
      'const a = [];\nwhile (true) a.push([1, 2, 3, 4, 5, 6, 7, 8].map((x) => ({ x })));',
    ]) {
      const r = await runScript(bomb, { bindings, limits: { memoryBytes: limit, sliceMs: 20_000 } });
      expect(!r.ok && r.error.kind, `${bomb} → ${JSON.stringify(r.ok ? r.value : r.error)}`).toBe('memory');
      expect(r.stats.memoryBytes).toBeLessThanOrEqual(limit);
    }
  });

  it('one huge allocation is refused as out of memory', async () => {
    const { bindings } = testBindings();
    const r = await runScript('return "x".repeat(2 ** 28).length', { bindings, limits: { memoryBytes: 32 * 1024 * 1024 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['memory', 'exception']).toContain(r.error.kind);
  });

  it('deep recursion ends with a clean stack overflow, and the script may catch it', async () => {
    const { bindings } = testBindings();
    const r = await runScript('function f(n) { return f(n + 1) + 1 }\nreturn f(0)', { bindings });
    expect(!r.ok && r.error.kind).toBe('stack');
    const caught = await runScript('function f(n) { return f(n + 1) + 1 }\ntry { f(0) } catch (e) { return "caught " + e.message }', { bindings });
    expect(caught.ok && caught.value).toBe('caught stack overflow');
  });

  it('a flood of nested calls ends at the per-run limit, caught or not', async () => {
    for (const code of ['for (;;) await tools.files.echo({});', 'for (;;) { try { await tools.files.echo({}) } catch (e) {} }']) {
      const { bindings, calls } = testBindings();
      const r = await runScript(code, { bindings, limits: { maxCalls: 10 } });
      expect(!r.ok && r.error.kind, code).toBe('calls');
      expect(calls).toHaveLength(10);
      expect(r.stats.calls).toBe(10);
    }
  });

  it('calls past the in-flight limit wait their turn and all complete', async () => {
    const { bindings, calls, maxInFlight } = testBindings();
    const code = 'const all = await Promise.all(Array.from({ length: 40 }, (_, i) => tools.files.echo({ i })));\nreturn all.length';
    const r = await runScript(code, { bindings, limits: { maxInFlight: 3 } });
    expect(r.ok && r.value).toBe(40);
    expect(calls).toHaveLength(40);
    expect(maxInFlight()).toBeLessThanOrEqual(3);
    expect(r.calls.some((c) => c.waitedMs > 0)).toBe(true);
  });

  it('a huge output is cut to the token limit, with a note', async () => {
    const { bindings } = testBindings();
    const r = await runScript('return { rows: Array.from({ length: 5000 }, (_, i) => ({ i, name: "row " + i })) }', { bindings, limits: { maxOutputTokens: 200 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.truncated).toBe(true);
    expect(r.value).toBeUndefined();
    expect(r.json).toMatch(/truncated: the result is about \d+ tokens, over the limit of 200/);
    expect(estimateTokens(r.json)).toBeLessThanOrEqual(200);
    // Cut to the limit, not far below it: the sandbox's own first cut is not counted twice.
    expect(estimateTokens(r.json)).toBeGreaterThan(150);
  });

  it('an output within the limit comes whole, as a value and as JSON', async () => {
    const { bindings } = testBindings();
    const r = await runScript('return { a: [1, 2, 3], b: "x" }', { bindings });
    expect(r.ok && r.truncated).toBe(false);
    if (r.ok) {
      expect(r.value).toEqual({ a: [1, 2, 3], b: 'x' });
      expect(r.json).toBe('{"a":[1,2,3],"b":"x"}');
    }
  });

  it('a script over the size limit is refused before it runs', async () => {
    const { bindings } = testBindings();
    const r = await runScript(`return ${'1 + '.repeat(100)}1`, { bindings, limits: { maxCodeChars: 50 } });
    expect(!r.ok && r.error.kind).toBe('code-size');
  });

  it("what crosses is bounded: arguments, their nesting, the result's nesting, thrown messages, log lines", async () => {
    const { bindings, calls } = testBindings();
    const big = await runScript('try { await tools.files.echo({ s: "x".repeat(2000000) }) } catch (e) { return [e.code, e.message] }', { bindings });
    expect(big.ok && big.value).toEqual([-32602, 'arguments of tools.files.echo are not JSON-serialisable: arguments are 2000008 characters; at most 1000000']);
    const deep = await runScript('let a = {};\nfor (let i = 0; i < 100; i++) a = { a };\ntry { await tools.files.echo(a) } catch (e) { return [e.code, e.message] }', { bindings });
    expect(deep.ok && deep.value).toEqual([-32602, 'arguments of tools.files.echo nest deeper than 64 levels']);
    expect(calls).toHaveLength(0);
    const deepResult = await runScript('let a = [];\nfor (let i = 0; i < 1000; i++) a = [a];\nreturn a', { bindings });
    expect(!deepResult.ok && deepResult.error.kind).toBe('result');
    const thrown = await runScript('throw new Error("m".repeat(100000))', { bindings });
    expect(!thrown.ok && thrown.error.message.length).toBeLessThan(2_100);
    const lines = await runScript('for (let i = 0; i < 200; i++) console.log("z".repeat(100000));\nreturn 1', { bindings, limits: { maxLogLines: 2 } });
    expect(lines.ok).toBe(true);
    expect(lines.logs.map((l) => l.text.length)).toEqual([4000 + '… [line cut at 4000 characters]'.length, 4000 + '… [line cut at 4000 characters]'.length, expect.any(Number)]);
    expect(lines.logs[2]!.text).toMatch(/198 more console line/);
  });

  it('console output is bounded in lines, with a note of what was dropped', async () => {
    const { bindings } = testBindings();
    const seen: string[] = [];
    const r = await runScript('for (let i = 0; i < 50; i++) console.log("line", i);\nreturn 1', { bindings, limits: { maxLogLines: 3 }, onLog: (l) => seen.push(l.text) });
    expect(r.logs.map((l) => l.text)).toEqual(['line 0', 'line 1', 'line 2', expect.stringMatching(/47 more console line/)]);
    expect(seen).toEqual(['line 0', 'line 1', 'line 2']);
  });
});
