// What run_code answers for a run (inbound/handlers/run-code.ts answer()): the value as
// structuredContent.result and as JSON text with the console lines after it; a value over the
// output limit only as its cut text; a failed run as a tool error with its kind, message and line.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetFairness } from '../../../src/codemode/fairness.js';
import { runScript } from '../../../src/codemode/sandbox.js';
import { answer } from '../../../src/inbound/handlers/run-code.js';

const bindings = { callables: [{ server: 'echo', tool: 'echo', inputSchema: { type: 'object' } }], call: async (_s: string, _t: string, a: Record<string, unknown>) => a.text };

describe('run_code’s answer', () => {
  beforeEach(resetFairness);

  it('is the value, the console lines and the call count', async () => {
    const r = answer(await runScript('console.log("one");\nconsole.warn("two");\nreturn { got: await tools.echo.echo({ text: "x" }) };', { bindings }));
    expect(r).toEqual({
      content: [{ type: 'text', text: '{"got":"x"}\n\nConsole:\none\n[warn] two' }],
      structuredContent: { result: { got: 'x' }, logs: ['one', '[warn] two'], calls: 1 },
    });
  });

  it('is null for a script that returns nothing, and carries no console section without lines', async () => {
    expect(answer(await runScript('await tools.echo.echo({});', { bindings }))).toEqual({ content: [{ type: 'text', text: 'null' }], structuredContent: { result: null, logs: [], calls: 1 } });
  });

  it('is only the cut text of a value over maxOutputTokens', async () => {
    const r = answer(await runScript('return Array.from({ length: 2000 }, (_, i) => i);', { bindings, limits: { maxOutputTokens: 100 } }));
    expect(r.structuredContent.truncated).toBe(true);
    expect(typeof r.structuredContent.result).toBe('string');
    expect(r.structuredContent.result).toMatch(/truncated: the result is about \d+ tokens, over the limit of 100 \(codeMode\.maxOutputTokens\)/);
    expect(r.content[0].text).toBe(r.structuredContent.result);
  });

  it('is a tool error with the kind, message and line of a failed run', async () => {
    const r = answer(await runScript('console.log("before");\nnull.x;', { bindings }));
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe("The script failed (exception): TypeError: cannot read property 'x' of null (line 2)\n\nConsole:\nbefore");
    expect(r.structuredContent).toEqual({ error: { kind: 'exception', message: "cannot read property 'x' of null", line: 2, name: 'TypeError' }, logs: ['before'], calls: 0 });
  });
});
