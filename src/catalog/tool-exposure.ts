// Which tools `tools/list` shows a client: all it may see (full mode), or the two search tools
// plus the ones it should always have at hand (search mode), or whichever of the two fits the
// client's token budget (auto). Pure: the token counter, when loaded, is handed in; without it a
// cheap estimate decides (it errs high, so auto switches to search a little early, never late).

import { compileFilter } from '../policy/filter.js';
// (Not search/index.js: the ranking engine loads on the first search, not at start-up.)
import { CALL_TOOL_TOOL, SEARCH_TOOLS_TOOL } from '../search/meta-tools.js';
import { toolListTokens, type TokenCounter } from '../search/tokens.js';
import { listOf, type CatalogEntry, type CatalogList } from './build.js';

export type ToolMode = 'full' | 'search' | 'auto';

export interface ExposureSettings {
  mode: ToolMode;
  /** auto: search mode once the full list costs more than this many tokens. */
  tokenBudget: number;
  /** Exposed-name globs listed in full in every mode. */
  alwaysVisible: readonly string[];
  /** The names of the two gateway tools (reserved: no server tool ever gets them). */
  searchTool: string;
  callTool: string;
}

export interface ExposureTokens {
  /** Tokens of the full list as a model would receive it, and of the search-mode list. */
  full: number;
  search: number;
  /** Whether the figures are exact (o200k) or the estimate. */
  exact: boolean;
}

export interface Exposure {
  /** The mode in force for this list (auto resolved). */
  mode: 'full' | 'search';
  /** What tools/list serves. */
  served: CatalogList;
  /** What each mode costs (serialising the list is work: computed on first use, except in auto). */
  tokens(): ExposureTokens;
}

/** Whether a tool is for the host's UI only (MCP Apps `_meta.ui.visibility` without "model"). */
export function hiddenFromModel(item: Record<string, any>): boolean {
  const visibility = item?._meta?.ui?.visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}

/** The fields of a tool a model needs to call it. */
export function toolDefinition(item: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { name: item.name };
  for (const k of ['title', 'description', 'inputSchema', 'annotations']) if (item[k] !== undefined) out[k] = item[k];
  return out;
}

/** The two gateway tools under their configured names, as catalog entries. */
export function metaToolEntries(s: Pick<ExposureSettings, 'searchTool' | 'callTool'>): CatalogEntry[] {
  const search = { ...SEARCH_TOOLS_TOOL, name: s.searchTool, description: SEARCH_TOOLS_TOOL.description.replace('call_tool', s.callTool) };
  const call = { ...CALL_TOOL_TOOL, name: s.callTool, description: CALL_TOOL_TOOL.description.replace('search_tools', s.searchTool) };
  return [search, call].map((item) => ({ key: item.name, server: '', original: item.name, item: item as Record<string, any> }));
}

const forModel = (entries: readonly CatalogEntry[]) => entries.map((e) => e.item as { name: string; description?: string; inputSchema?: unknown });

/** The tools a client sees under `settings`, given every tool it may call. */
export function exposeTools(tools: CatalogList, settings: ExposureSettings, counter?: TokenCounter): Exposure {
  const always = compileFilter({ allow: [...settings.alwaysVisible], deny: [] });
  // App-only tools stay listed for the host in every mode (search never offers them).
  const kept = tools.entries.filter((e) => (settings.alwaysVisible.length > 0 && always(e.key)) || hiddenFromModel(e.item));
  const searchEntries = [...metaToolEntries(settings), ...kept];
  const count = (entries: readonly CatalogEntry[]) => toolListTokens(forModel(entries), counter);
  let tokens: ExposureTokens | undefined;
  const measure = () => (tokens ??= { full: count(tools.entries), search: count(searchEntries), exact: counter !== undefined });
  const mode = settings.mode === 'auto' ? (measure().full <= settings.tokenBudget ? 'full' : 'search') : settings.mode;
  return { mode, served: mode === 'full' ? tools : listOf(searchEntries), tokens: measure };
}
