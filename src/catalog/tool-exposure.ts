// Which tools `tools/list` shows a client: all it may see (full mode), or the gateway's search
// tools plus the ones it should always have at hand (search mode), or whichever of the two fits
// the client's token budget (auto), or run_code and search_tools (code mode). The server directory
// goes into search_tools' description while it fits its own budget, else behind a third tool,
// list_servers. Pure: the token counter and code mode's declarer, when loaded, are handed in.

import { compileFilter } from '../policy/filter.js';
// (Not search/index.js: the ranking engine loads on the first search, not at start-up.)
import { callToolTool, type DirectoryPlacement, type GatewayTool, listServersTool, searchToolsTool } from '../search/meta-tools.js';
import { estimateTokens, toolListTokens, type TokenCounter } from '../search/tokens.js';
import { listOf, type CatalogEntry, type CatalogList } from './build.js';
import { runCodeTool, type CodeDeclarations, type CodeDeclarer, type CodeLimitsSummary } from './code-tool.js';
import { valueAt, type JsonObject } from '../protocol/json.js';

export type ToolMode = 'full' | 'search' | 'auto' | 'code';

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
  runCodeTool: string;
  /** search mode: the most tokens the directory may cost inside search_tools' description. */
  directoryBudget: number;
  /** code mode: the most tokens the tools' declarations may cost inside run_code's description. */
  codeBudget: number;
}

/** What code mode's list needs besides the settings: made by the app once code mode is configured. */
export interface CodeExposure {
  declare?: CodeDeclarer;
  limits?: CodeLimitsSummary;
}

export interface ExposureTokens {
  /** Tokens of the full list as a model would receive it, and of the search-mode and code-mode lists (directory and declarations included; code: 0 outside code mode). */
  full: number;
  search: number;
  code: number;
  /** Tokens of the tools' declarations, and whether they fit run_code's description (code mode). */
  declarations: number;
  declarationsIn: 'description' | 'search';
  /** Tokens of the server directory's lines, and where search mode puts them. */
  directory: number;
  directoryIn: 'description' | 'list_servers' | 'none';
  /** Whether the figures are exact (o200k) or the estimate. */
  exact: boolean;
}

export interface Exposure {
  /** The mode in force for this list (auto resolved). */
  mode: 'full' | 'search' | 'code';
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
export function hiddenFromModel(item: JsonObject): boolean {
  const visibility = valueAt(item, '_meta', 'ui', 'visibility');
  return Array.isArray(visibility) && !visibility.includes('model');
}

/** What a script may call: every tool of the view a model may see (never one meant for an app's UI alone). */
export function codeCallables(tools: readonly CatalogEntry[]): CatalogEntry[] {
  return tools.filter((e) => !hiddenFromModel(e.item));
}

/** The fields of a tool a model needs to call it. */
export function toolDefinition(item: JsonObject): JsonObject {
  const out: JsonObject = { name: item.name };
  for (const k of ['title', 'description', 'inputSchema', 'annotations']) if (item[k] !== undefined) out[k] = item[k];
  return out;
}

type GatewayToolNames = Pick<ExposureSettings, 'searchTool' | 'callTool' | 'listServersTool'>;

const asEntry = (item: GatewayTool): CatalogEntry => ({ key: item.name, server: '', original: item.name, item });

/** The gateway's tools under their configured names, as catalog entries: list_servers only when the directory is behind it. */
export function metaToolEntries(s: GatewayToolNames, directory?: DirectoryPlacement): CatalogEntry[] {
  const names = { search: s.searchTool, call: s.callTool };
  const items = [searchToolsTool(names, directory), callToolTool(names)];
  if (directory && 'tool' in directory) items.push(listServersTool(s.listServersTool, s.searchTool));
  return items.map(asEntry);
}

/** Code mode's gateway tools: run_code (with the declarations, when they fit) and search_tools (and list_servers). */
export function codeToolEntries(s: ExposureSettings, declarations: CodeDeclarations | undefined, limits: CodeLimitsSummary | undefined, directory?: DirectoryPlacement): CatalogEntry[] {
  const items = [
    runCodeTool({ run: s.runCodeTool, search: s.searchTool }, declarations, s.codeBudget, limits),
    searchToolsTool({ search: s.searchTool, call: s.callTool, run: s.runCodeTool }, directory),
  ];
  if (directory && 'tool' in directory) items.push(listServersTool(s.listServersTool, s.searchTool));
  return items.map(asEntry);
}

const forModel = (entries: readonly CatalogEntry[]) => entries.map((e) => e.item as { name: string; description?: string; inputSchema?: unknown });

/** The tools a client sees under `settings`, given every tool it may call and its server directory. */
export function exposeTools(tools: CatalogList, settings: ExposureSettings, counter: TokenCounter | undefined, directory: () => DirectorySource, code: CodeExposure = {}): Exposure {
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
  let keptEntries: CatalogEntry[] | undefined;
  const kept = () => {
    if (keptEntries) return keptEntries;
    const always = compileFilter({ allow: [...settings.alwaysVisible], deny: [] });
    // App-only tools stay listed for the host in every mode (search never offers them).
    return (keptEntries = tools.entries.filter((e) => (settings.alwaysVisible.length > 0 && always(e.key)) || hiddenFromModel(e.item)));
  };
  let searchEntries: CatalogEntry[] | undefined;
  const inSearch = () => (searchEntries ??= [...metaToolEntries(settings, place().placement), ...kept()]);
  let declared: { text: string; tokens: number } | undefined | null;
  const declarations = () => {
    if (declared !== undefined) return declared ?? undefined;
    const d = code.declare?.(codeCallables(tools.entries));
    // The exact counter, once loaded, decides whether they fit (as for the other budgets).
    declared = d === undefined ? null : { text: d.text, tokens: counter ? counter(d.text) : d.tokens };
    return declared ?? undefined;
  };
  let codeEntries: CatalogEntry[] | undefined;
  const inCode = () => (codeEntries ??= [...codeToolEntries(settings, declarations(), code.limits, place().placement), ...kept()]);
  let full: number | undefined;
  const fullTokens = () => (full ??= count(tools.entries));
  let tokens: ExposureTokens | undefined;
  const measure = () => {
    if (tokens) return tokens;
    const { tokens: directory, directoryIn } = place();
    // Declaring every tool is work: code mode's figures are made only where it is in force.
    const coded = settings.mode === 'code';
    const d = coded ? (declarations()?.tokens ?? 0) : 0;
    const declarationsIn = coded && declarations() !== undefined && d <= settings.codeBudget ? 'description' : 'search';
    const code = coded ? count(inCode()) : 0;
    return (tokens = { full: fullTokens(), search: count(inSearch()), code, declarations: d, declarationsIn, directory, directoryIn, exact: counter !== undefined });
  };
  const mode = settings.mode === 'auto' ? (fullTokens() <= settings.tokenBudget ? 'full' : 'search') : settings.mode;
  const directoryPlace = () => {
    const { tokens: directory, directoryIn } = place();
    return { directory, directoryIn };
  };
  const served = mode === 'full' ? tools : listOf(mode === 'code' ? inCode() : inSearch());
  return { mode, served, tokens: measure, directory: directoryPlace };
}
