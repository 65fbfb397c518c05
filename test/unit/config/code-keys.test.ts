// The config keys of code mode: catalog.mode code (globally and per profile), run_code's reserved
// name and declarations budget, and the codeMode limits, whose defaults are the engine's own and
// which map onto its CodeModeLimits one to one, in the config's syntax for durations and sizes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/codemode/limits.js';
import { parse, problemsOf } from './helpers.js';

describe('catalog.mode: code', () => {
  it('is a mode, globally and per profile, with a budget of its own', () => {
    const config = parse('catalog: { mode: code, codeBudget: 900 }\nclients:\n  - { name: agent, token: t, catalog: { mode: code, codeBudget: 0 } }\n');
    expect(config.catalog.mode).toBe('code');
    expect(config.catalog.codeBudget).toBe(900);
    expect(config.catalog.runCodeTool).toBe('run_code');
    expect(config.clients[0]!.catalog).toMatchObject({ mode: 'code', codeBudget: 0 });
  });

  it("run_code's name differs from every other gateway tool's", () => {
    expect(problemsOf('catalog: { runCodeTool: search_tools }\n')).toEqual([
      { path: 'catalog.runCodeTool', message: 'is the same name as catalog.searchTool ("search_tools"): the gateway tools need distinct names' },
    ]);
    expect(problemsOf('catalog: { listServersTool: go, runCodeTool: go }\n')[0]!.path).toBe('catalog.runCodeTool');
    expect(problemsOf('catalog: { runCodeTool: "run code" }\n')[0]!.path).toBe('catalog.runCodeTool');
  });
});

describe('codeMode', () => {
  it("defaults to the engine's own limits", () => {
    expect(parse('servers: []').codeMode).toEqual({ ...DEFAULT_LIMITS, maxRuns: 16, maxRunsPerPrincipal: 8 });
  });

  it('takes durations and sizes in the config syntax', () => {
    const config = parse(
      'codeMode: { wallTime: 2m, slice: 250ms, memory: 128MiB, stack: 512KiB, maxCalls: 7, maxInFlight: 2, maxOutputTokens: 900, maxLogLines: 3, maxLogChars: 500, maxCodeChars: 2000, maxRuns: 3, maxRunsPerPrincipal: 1 }\n',
    );
    expect(config.codeMode).toEqual({
      maxRuns: 3,
      maxRunsPerPrincipal: 1,
      wallMs: 120_000,
      sliceMs: 250,
      memoryBytes: 128 * 1024 * 1024,
      stackBytes: 512 * 1024,
      maxCalls: 7,
      maxInFlight: 2,
      maxOutputTokens: 900,
      maxLogLines: 3,
      maxLogChars: 500,
      maxCodeChars: 2000,
    });
  });

  it('refuses what the engine cannot honour, naming the key', () => {
    expect(problemsOf('codeMode: { memory: 16MiB }\n')[0]).toEqual({ path: 'codeMode.memory', message: 'must be at least 24MiB (the engine alone takes 16MiB)' });
    expect(problemsOf('codeMode: { stack: 2MiB }\n')[0]!.path).toBe('codeMode.stack');
    expect(problemsOf('codeMode: { stack: 1KiB }\n')[0]!.path).toBe('codeMode.stack');
    expect(problemsOf('codeMode: { maxCalls: 0 }\n')[0]!.path).toBe('codeMode.maxCalls');
    expect(problemsOf('codeMode: { wallTime: forever }\n')[0]!.path).toBe('codeMode.wallTime');
    expect(problemsOf('codeMode: { wallMs: 5 }\n')[0]!.path).toBe('codeMode.wallMs');
  });
});
