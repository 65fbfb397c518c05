// Code mode's tool list (catalog/tool-exposure.ts, code-tool.ts): run_code and search_tools (and
// list_servers past the directory's budget), the tools an app needs and alwaysVisible ones; the
// declarations of every model-visible tool in run_code's description within codeBudget, else a
// pointer to search; the limits stated; run_code's name reserved like the other gateway tools.
import { describe, expect, it } from 'vitest';
import { buildCatalog, DEFAULT_GUARD, type CatalogExposure, type CatalogServerInput } from '../../../src/catalog/build.js';
import type { ExposureSettings } from '../../../src/catalog/tool-exposure.js';
import { codeCallables } from '../../../src/catalog/tool-exposure.js';
import { viewFor } from '../../../src/catalog/view.js';
import type { ServerConfig } from '../../../src/config/types.js';
import { DEFAULT_LIMITS } from '../../../src/codemode/limits.js';
import { declareCallables, signatureOf, viewCallables } from '../../../src/inbound/code-callables.js';

const all = { allow: ['*'], deny: [] as string[] };
const naming = { separator: '__', mode: 'always' as const };
const tool = (name: string, extra: Record<string, any> = {}) => ({
  name,
  description: `Does ${name}.`,
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  ...extra,
});
const server = (name: string, tools: Record<string, any>[]): CatalogServerInput => ({
  config: { kind: 'stdio', name, prefix: name, enabled: true, tools: all, prompts: all, resources: all } as unknown as ServerConfig,
  ready: true,
  lists: { tools, prompts: [], resources: [], resourceTemplates: [] },
});
const settings = (over: Partial<ExposureSettings> = {}): ExposureSettings => ({
  mode: 'code',
  tokenBudget: 10_000,
  alwaysVisible: [],
  searchTool: 'search_tools',
  callTool: 'call_tool',
  listServersTool: 'list_servers',
  runCodeTool: 'run_code',
  directoryBudget: 1600,
  codeBudget: 4000,
  ...over,
});
const exposure = (over: Partial<ExposureSettings> = {}, declare = true): CatalogExposure => ({
  settingsFor: () => settings(over),
  code: declare ? { declare: declareCallables, limits: DEFAULT_LIMITS } : undefined,
});
const servers = [
  server('mail', [tool('send_message'), tool('list-messages'), tool('app_panel', { _meta: { ui: { resourceUri: 'ui://mail/p', visibility: ['app'] } } })]),
  server('cal', [tool('list_events'), tool('run_code')]),
];
const viewOf = (over: Partial<ExposureSettings> = {}, declare = true) => viewFor(buildCatalog(servers, naming, DEFAULT_GUARD, exposure(over, declare)), undefined);
const served = (over: Partial<ExposureSettings> = {}, declare = true) =>
  viewOf(over, declare)
    .exposure()
    .served.entries.map((e) => e.item);

describe('code mode’s tool list', () => {
  it('is run_code and search_tools, and the tools an app needs (never call_tool)', () => {
    expect(served().map((t) => t.name)).toEqual(['run_code', 'search_tools', 'mail__app_panel']);
    expect(served({ alwaysVisible: ['cal__list_events'] }).map((t) => t.name)).toEqual(['run_code', 'search_tools', 'mail__app_panel', 'cal__list_events']);
    expect(viewOf().exposure().mode).toBe('code');
  });

  it('reserves run_code’s name: a server tool that would take it is renamed', () => {
    const names = viewOf().lists.tools.entries.map((e) => e.key);
    expect(names).not.toContain('run_code');
    expect(names.filter((n) => n.startsWith('cal__run_code'))).toHaveLength(1);
  });

  it('carries the declarations of every model-visible tool and the limits, within codeBudget', () => {
    const [run] = served();
    expect(run!.description).toMatch(/declare const tools: \{/);
    expect(run!.description).toMatch(/send_message\(args: \{/);
    // A name that is not an identifier is declared under its safe name, and says its own.
    expect(run!.description).toMatch(/list_messages\(args/);
    expect(run!.description).toMatch(/Tool "list-messages"/);
    expect(run!.description).not.toMatch(/app_panel/);
    expect(run!.description).toMatch(/Limits: 30 s per run, 64 MiB of memory, 100 tool calls per run \(8 at once; more wait\), at most 100 ms of computing between two awaits/);
    const t = viewOf().exposure().tokens();
    expect(t.declarationsIn).toBe('description');
    expect(t.declarations).toBeGreaterThan(0);
    expect(t.code).toBeGreaterThan(t.declarations);
  });

  it('past codeBudget (or before the declarations are loaded) sends the model to search instead', () => {
    for (const [over, declare] of [
      [{ codeBudget: 10 }, true],
      [{ codeBudget: 0 }, true],
      [{}, false],
    ] as const) {
      const [run] = served(over, declare);
      expect(run!.description).not.toMatch(/declare const tools/);
      expect(run!.description).toMatch(/find them first with search_tools \(each result carries its TypeScript signature\)/);
    }
    expect(viewOf({ codeBudget: 10 }).exposure().tokens().declarationsIn).toBe('search');
  });

  it('says in search_tools’ description that found tools are called from run_code, and lists servers past directoryBudget', () => {
    const search = served().find((t) => t.name === 'search_tools')!;
    expect(search.description).toMatch(/TypeScript signature; call them from a run_code script/);
    expect(served({ directoryBudget: 0 }).map((t) => t.name)).toEqual(['run_code', 'search_tools', 'list_servers', 'mail__app_panel']);
  });

  it('has its own names for the gateway tools', () => {
    const names = served({ runCodeTool: 'script', searchTool: 'find' }).map((t) => t.name);
    expect(names.slice(0, 2)).toEqual(['script', 'find']);
  });

  it('costs nothing to measure outside code mode', () => {
    const t = viewOf({ mode: 'search' }).exposure().tokens();
    expect([t.code, t.declarations]).toEqual([0, 0]);
  });
});

describe('what a script may call', () => {
  it('is every tool of the view a model may see, named by server and the server’s own tool name', () => {
    const tools = viewOf().lists.tools.entries;
    expect(codeCallables(tools).map((e) => e.key)).not.toContain('mail__app_panel');
    const { callables, names } = viewCallables(tools);
    expect(callables.map((c) => `${c.server}.${c.tool}`).sort()).toEqual(['cal.list_events', 'cal.run_code', 'mail.list-messages', 'mail.send_message']);
    expect(names.get('mail', 'list-messages')!.path).toBe('tools.mail.list_messages');
    expect(viewCallables(tools)).toBe(viewCallables(tools));
  });

  it('has a signature as a script writes the call', () => {
    const { names } = viewCallables(viewOf().lists.tools.entries);
    expect(signatureOf(names.get('mail', 'send_message')!)).toBe('tools.mail.send_message(args: {\n  n: number;\n}): Promise<unknown>;');
  });
});
