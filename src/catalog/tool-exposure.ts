// Which tools `tools/list` shows a client: all it may see (full mode), or the gateway's search
// tools plus the ones it should always have at hand (search mode), or whichever of the two fits
// the client's token budget (auto). In search mode the server directory goes into search_tools'
// description while it fits its own budget, else behind a third tool, list_servers. Pure: the
// token counter, when loaded, is handed in; without it a cheap estimate decides.

import { compileFilter } from '../policy/filter.js';
// (Not search/index.js: the ranking engine loads on the first search, not at start-up.)
import { callToolTool, listServersTool, searchToolsTool, type DirectoryPlacement } from '../search/meta-tools.js';
import { estimateTokens, toolListTokens, type TokenCounter } from '../search/tokens.js';
import { listOf, type CatalogEntry, type CatalogList } from './build.js';

export type ToolMode = 'full' | 'search' | 'auto';

export interface ExposureSettings {
  mode: ToolMode;
  /** auto: search mode once the full list costs more than this many tokens. */
  tokenBudget: number;
  /** Exposed-name globs listed in full in every mode. */
  alwaysVisible: readonly string[];
  /** The names of the gateway tools (reserved: no server tool ever gets them). */
  searchTool: string;
  callTool: string;
  listServersTool: string;
  /** search mode: the most tokens the directory may cost inside search_tools' description. */
  directoryBudget: number;
}

export interface ExposureTokens {
  /** Tokens of the full list as a model would receive it, and of the search-mode list (directory included). */
  full: number;
  search: number;
  /** Tokens of the server directory's lines, and where search mode puts them. */
  directory: number;
  directoryIn: 'description' | 'list_servers' | 'none';
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
  /** Where search mode puts the server directory, and what its lines cost (computed on first use). */
  directory(): Pick<ExposureTokens, 'directory' | 'directoryIn'>;
}

/** The view's server directory, as exposure needs it (catalog/server-directory.ts). */
export interface DirectorySource {
  text: string;
  lines: readonly unknown[];
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

type GatewayToolNames = Pick<ExposureSettings, 'searchTool' | 'callTool' | 'listServersTool'>;

/** The gateway's tools under their configured names, as catalog entries: list_servers only when the directory is behind it. */
export function metaToolEntries(s: GatewayToolNames, directory?: DirectoryPlacement): CatalogEntry[] {
  const names = { search: s.searchTool, call: s.callTool };
  const items = [searchToolsTool(names, directory), callToolTool(names)];
  if (directory && 'tool' in directory) items.push(listServersTool(s.listServersTool, s.searchTool));
  return items.map((item) => ({ key: item.name, server: '', original: item.name, item }));
}

const forModel = (entries: readonly CatalogEntry[]) => entries.map((e) => e.item as { name: string; description?: string; inputSchema?: unknown });

/** The tools a client sees under `settings`, given every tool it may call and its server directory. */
export function exposeTools(tools: CatalogList, settings: ExposureSettings, counter: TokenCounter | undefined, directory: () => DirectorySource): Exposure {
  const count = (entries: readonly CatalogEntry[]) => toolListTokens(forModel(entries), counter);
  let placed: { placement: DirectoryPlacement; tokens: number; directoryIn: ExposureTokens['directoryIn'] } | undefined;
  const place = () => {
    if (placed) return placed;
    const d = directory();
    const tokens = d.lines.length === 0 ? 0 : counter ? counter(d.text) : estimateTokens(d.text);
    if (d.lines.length === 0) return (placed = { placement: undefined, tokens, directoryIn: 'none' });
    if (tokens <= settings.directoryBudget) return (placed = { placement: { inline: d.text }, tokens, directoryIn: 'description' });
    return (placed = { placement: { tool: settings.listServersTool }, tokens, directoryIn: 'list_servers' });
  };
  let searchEntries: CatalogEntry[] | undefined;
  const inSearch = () => {
    if (searchEntries) return searchEntries;
    const always = compileFilter({ allow: [...settings.alwaysVisible], deny: [] });
    // App-only tools stay listed for the host in every mode (search never offers them).
    const kept = tools.entries.filter((e) => (settings.alwaysVisible.length > 0 && always(e.key)) || hiddenFromModel(e.item));
    return (searchEntries = [...metaToolEntries(settings, place().placement), ...kept]);
  };
  let full: number | undefined;
  const fullTokens = () => (full ??= count(tools.entries));
  let tokens: ExposureTokens | undefined;
  const measure = () => {
    if (tokens) return tokens;
    const { tokens: directory, directoryIn } = place();
    return (tokens = { full: fullTokens(), search: count(inSearch()), directory, directoryIn, exact: counter !== undefined });
  };
  const mode = settings.mode === 'auto' ? (fullTokens() <= settings.tokenBudget ? 'full' : 'search') : settings.mode;
  const directoryPlace = () => {
    const { tokens: directory, directoryIn } = place();
    return { directory, directoryIn };
  };
  return { mode, served: mode === 'full' ? tools : listOf(inSearch()), tokens: measure, directory: directoryPlace };
}
