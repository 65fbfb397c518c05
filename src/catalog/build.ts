// Builds one immutable catalog snapshot from the servers' current lists: policy filter → pins
// and sanitizing (guard.ts) → namespacing → indexes. Pure: same input, same snapshot. Runs when a list changes, never per
// client request; handlers only read the snapshot it returns. What one server's list gave is
// cached by that list (and each exposed entry and its digest by its item), so a rebuild after one
// server's change costs about what that server changed, plus a walk over references.

import { createHash } from 'node:crypto';
import type { ClientProfile, FilterRules, GatewayConfig, ServerConfig } from '../config/types.js';
import type { TokenCounter } from '../search/tokens.js';
import type { CodeExposure, ExposureSettings } from './tool-exposure.js';
import { KINDS, LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { compileFilter } from '../policy/filter.js';
import { compileUriFilter } from '../policy/uri-filter.js';
import type { UriFilterRules } from '../policy/rules.js';
import { assignNames, type NameRequest } from './naming.js';
import { ResourceRouter, namespaceUri, serverUriPrefix } from './resource-uris.js';
import { guardList, type GuardOptions, type GuardReport } from './guard.js';
import { aboutServers, sameAbout, type ServerAbout } from './server-directory.js';
import { exposeUiUri, isUiUri, uiPrefixes } from './ui-uris.js';
import { appCatalog, exposeToolUis, uiRenames } from './app-catalog.js';
import type { JsonObject } from '../protocol/json.js';

/**
 * An item as a server listed it (tool, prompt, resource, template): JSON from outside, its fields
 * narrowed where they are read.
 */
export type CatalogItem = JsonObject;

export interface CatalogEntry {
  /** Exposed name (tools, prompts) or exposed URI / URI template (resources, templates). */
  key: string;
  server: string;
  /** The server's own name or URI. */
  original: string;
  /** The item as clients see it (a shallow copy with the exposed name/URI). */
  item: CatalogItem;
  /** The catalog's name for it, where a profile's view refitted the name (else `key`). */
  catalogKey?: string;
}

export interface CatalogList {
  entries: CatalogEntry[];
  /** key → position in entries. */
  index: Map<string, number>;
  /** Content hash of what clients see, to tell whether a rebuild changed this list. */
  hash: string;
}

export interface Catalog {
  lists: Record<ListKind, CatalogList>;
  /** What the guard stage held back, blocked or changed, for logs, audit and `check`. */
  report: GuardReport;
  resources: ResourceRouter;
  /** server → its resource policy, for URIs that were never listed (templates, links). */
  resourcePolicy: Map<string, (uri: string) => boolean>;
  /**
   * server → (its URI → the namespaced URI clients see), for URIs that collided and, on servers
   * that ship MCP Apps, for every `ui://` URI (see UriRenames).
   */
  renamedUris: Map<string, UriRenames>;
  /** MCP Apps: which servers ship one, and where their UI URIs lead (see apps.md). */
  apps: AppCatalog;
  /** server → its instructions, cleaned by the guard, for servers that gave any (in config order). */
  instructions: Map<string, string>;
  /** server → what it is for (config description, what it says of itself), for the server directory. */
  about: ReadonlyMap<string, ServerAbout>;
  /** How tools are shown (full, search, auto) to each profile: see tool-exposure.ts. */
  exposure: CatalogExposure;
  /** The lock and newTools the catalog was guarded with: skills (not in the snapshot) are held by them when listed. */
  pins?: Pick<GuardOptions, 'lock' | 'newTools'>;
}

/** Looks up the URI clients see for a server's own URI (a Map is one). */
export interface UriRenames {
  get(uri: string): string | undefined;
}

export interface AppCatalog {
  /** Servers with at least one tool that points at a UI resource, or a `ui://` resource. */
  servers: ReadonlySet<string>;
  /** server → its UI prefix (`ui://<prefix>+…`), for every configured server. */
  uiPrefixes: ReadonlyMap<string, string>;
  /** A server's own UI URI → the servers that list it or point a tool at it, in config order. */
  uiUris: ReadonlyMap<string, readonly string[]>;
}

/** The exposure settings of the catalog: per profile (a profile may override the global ones). */
export interface CatalogExposure {
  settingsFor(profile: ClientProfile | undefined): ExposureSettings;
  /** The o200k counter once loaded; until then token figures are the estimate. */
  counter?: TokenCounter;
  /** Code mode's declarer and limits, once the app has loaded them (code mode configured). */
  code?: CodeExposure;
}

/** Full lists, default names: what a catalog without exposure config gets. */
export const DEFAULT_EXPOSURE: CatalogExposure = {
  settingsFor: () => ({
    mode: 'full',
    tokenBudget: Infinity,
    alwaysVisible: [],
    searchTool: 'search_tools',
    callTool: 'call_tool',
    listServersTool: 'list_servers',
    runCodeTool: 'run_code',
    directoryBudget: Infinity,
    codeBudget: Infinity,
  }),
};

export interface CatalogServerInput {
  config: ServerConfig;
  /** Only servers whose lists are known contribute items (see ServerConnection.listed). */
  ready: boolean;
  lists: Record<ListKind, JsonObject[]>;
  /** The server's own instructions (initialize result), as it sent them. */
  instructions?: string;
  /** Its serverInfo (initialize or server/discover result), as it sent it. */
  serverInfo?: { title?: unknown; description?: unknown };
  /** The operator's description of it, from the config in force (`config` may be an older entry). */
  description?: string;
}

const filterCache = new WeakMap<FilterRules, (name: string) => boolean>();
function filterOf(rules: FilterRules): (name: string) => boolean {
  let f = filterCache.get(rules);
  if (!f) filterCache.set(rules, (f = compileFilter(rules)));
  return f;
}

/** Resource rules judge canonical URIs: no re-spelling of a URI gets past a deny (policy/uri-filter.ts). */
const uriFilterCache = new WeakMap<UriFilterRules, (uri: string) => boolean>();
function uriFilterOf(rules: UriFilterRules): (uri: string) => boolean {
  let f = uriFilterCache.get(rules);
  if (!f) uriFilterCache.set(rules, (f = compileUriFilter(rules)));
  return f;
}

interface Candidate {
  server: ServerConfig;
  original: string;
  item: JsonObject;
}

/** One server's list through policy and guard, for as long as its list, config and guard stay. */
const segments = new WeakMap<JsonObject[], { config: ServerConfig; guard: GuardOptions; candidates: Candidate[]; report: GuardReport }>();

function segmentOf(s: CatalogServerInput, kind: ListKind, guard: GuardOptions) {
  const list = s.lists[kind];
  const hit = segments.get(list);
  if (hit && hit.config === s.config && hit.guard === guard) return hit;
  const field = KINDS[kind].nameField;
  // Templates are not URIs: their rules match the template text as written.
  const allow = kind === 'resources' ? uriFilterOf(s.config.resources) : filterOf(s.config[KINDS[kind].rule]);
  const guarded = guardList(s.config.name, kind, list, guard, (item) => typeof item[field] === 'string' && allow(item[field]));
  // item[field] is a string: the filter above let nothing else through.
  const segment = { config: s.config, guard, candidates: guarded.items.map((item) => ({ server: s.config, original: item[field] as string, item })), report: guarded.report };
  segments.set(list, segment);
  return segment;
}

/**
 * The items of one kind that policy and then the guard let through, in config order then server
 * order. Policy runs first: an item the config denies is never sanitized, pinned, audited or
 * reported (its text is none of our business, and its findings would be noise in the audit log).
 */
function allowed(servers: readonly CatalogServerInput[], kind: ListKind, guard: GuardOptions, report: GuardReport): Candidate[] {
  const out: Candidate[] = [];
  for (const s of servers) {
    if (!s.ready) continue;
    const segment = segmentOf(s, kind, guard);
    for (const h of segment.report.held) report.held.push(h);
    for (const f of segment.report.findings) report.findings.push(f);
    for (const b of segment.report.blocked) report.blocked.push(b);
    for (const c of segment.candidates) out.push(c);
  }
  return out;
}

/** Each exposed item's digest, once per item object (items are never changed once built). */
const digests = new WeakMap<JsonObject, string>();

function digestOf(item: JsonObject): string {
  let d = digests.get(item);
  if (d === undefined) digests.set(item, (d = createHash('sha256').update(JSON.stringify(item)).digest('base64url')));
  return d;
}

/** An entry's item's digest, kept on the entry (entries never change; not enumerable, so a copy made by spreading does not carry it). */
const DIGEST = Symbol('digest');

function entryDigest(e: CatalogEntry): string {
  const own = (e as { [DIGEST]?: string })[DIGEST];
  if (own !== undefined) return own;
  const d = digestOf(e.item);
  Object.defineProperty(e, DIGEST, { value: d });
  return d;
}

export function listOf(entries: CatalogEntry[]): CatalogList {
  const index = new Map<string, number>();
  const parts = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!index.has(e.key)) index.set(e.key, i);
    parts[i] = entryDigest(e);
  }
  return { entries, index, hash: createHash('sha256').update(parts.join('\n')).digest('base64url') };
}

/** The entry an item got last time under the same name: kept, so its digest and what views built from it are too. */
const named = new WeakMap<JsonObject, CatalogEntry>();

function entryFor(c: Candidate, name: string, field: string): CatalogEntry {
  const hit = named.get(c.item);
  if (hit && hit.key === name && hit.server === c.server.name && hit.original === c.original) return hit;
  const entry = { key: name, server: c.server.name, original: c.original, item: { ...c.item, [field]: name } };
  named.set(c.item, entry);
  return entry;
}

/** The same name request for the same item, so naming's per-request memo holds (naming.ts). */
const requests = new WeakMap<JsonObject, NameRequest>();

function requestOf(c: Candidate): NameRequest {
  let r = requests.get(c.item);
  if (r === undefined || r.server !== c.server.name || r.prefix !== c.server.prefix || r.name !== c.original) {
    requests.set(c.item, (r = { server: c.server.name, prefix: c.server.prefix, name: c.original }));
  }
  return r;
}

/** What namedList needs besides the items: the naming config and every server's namespace. */
interface NamingContext {
  naming: GatewayConfig['naming'];
  /** server → prefix, for every configured server (a server that is down keeps its namespace). */
  namespaces: ReadonlyMap<string, string>;
  report: GuardReport;
}

function namedList(candidates: Candidate[], kind: 'tool' | 'prompt', context: NamingContext, reserved?: ReadonlySet<string>): CatalogList {
  const { naming, namespaces, report } = context;
  const requests: NameRequest[] = candidates.map(requestOf);
  const names = assignNames(requests, { separator: naming.separator, mode: naming.mode, reserved, namespaces });
  const entries: CatalogEntry[] = [];
  candidates.forEach((c, i) => {
    const key = names[i];
    if (key !== undefined) entries.push(entryFor(c, key, 'name'));
    else {
      const how = c.server.prefix === '' ? `server "${c.server.name}" has prefix "" and cannot be given its own` : 'its own prefix does not take it out (the prefixes overlap)';
      const tried = c.server.prefix === '' ? c.original : c.server.prefix + naming.separator + c.original;
      const why = `its name is in the namespace of another server (${namespaceOf(tried, namespaces, naming.separator)}…), and ${how}`;
      report.blocked.push({ server: c.server.name, kind, item: c.original, why });
    }
  });
  return listOf(entries);
}

/** The `<prefix><separator>` a name starts with, longest first: which namespace it reached into. */
function namespaceOf(name: string, namespaces: ReadonlyMap<string, string>, separator: string): string {
  const starts = [...namespaces.values()].filter((p) => p !== '').map((p) => p + separator);
  return starts.filter((s) => name.startsWith(s)).sort((a, b) => b.length - a.length)[0] ?? name;
}

/**
 * Resources and templates: original URIs, unless an earlier server already took the same one.
 * `ui://` URIs are always namespaced inside the scheme (ui-uris.ts): a host may cache an app's HTML
 * by URI, so a UI URI must never pass from one server to another as servers come and go.
 */
function uriList(
  candidates: Candidate[],
  field: string,
  ui: ReadonlyMap<string, string>,
  uriOwners: ReadonlyMap<string, string>,
  onEntry: (entry: CatalogEntry, namespacedWith?: string) => void,
): CatalogList {
  const owner = new Map<string, string>();
  const entries: CatalogEntry[] = [];
  for (const c of candidates) {
    const first = owner.get(c.original);
    let key = c.original;
    let uriPrefix: string | undefined;
    if (isUiUri(c.original)) {
      uriPrefix = ui.get(c.server.name)!;
      key = exposeUiUri(uriPrefix, c.original);
    } else if (inOthersNamespace(c.original, c.server.name, uriOwners)) {
      // `gh+file:///x` listed by another server than gh: reads of it must still reach gh.
      uriPrefix = serverUriPrefix(c.server);
      key = namespaceUri(uriPrefix, c.original);
    } else if (first === undefined) owner.set(c.original, c.server.name);
    else if (first !== c.server.name) {
      uriPrefix = serverUriPrefix(c.server);
      key = namespaceUri(uriPrefix, c.original);
    }
    const entry = { key, server: c.server.name, original: c.original, item: key === c.original ? c.item : { ...c.item, [field]: key } };
    entries.push(entry);
    onEntry(entry, uriPrefix);
  }
  return listOf(entries);
}

/** Whether a URI starts `<uri prefix>+` (before its first `:`) of an enabled server other than `server`. */
function inOthersNamespace(uri: string, server: string, uriOwners: ReadonlyMap<string, string>): boolean {
  const plus = uri.indexOf('+');
  const colon = uri.indexOf(':');
  if (plus <= 0 || (colon !== -1 && colon < plus)) return false;
  const owner = uriOwners.get(uri.slice(0, plus).toLowerCase());
  return owner !== undefined && owner !== server;
}

/** No pins, default sanitizing: what a catalog without policy config gets. */
export const DEFAULT_GUARD: GuardOptions = { sanitize: { maxDescriptionLength: 1024, action: 'strip' }, newTools: 'allow' };

export function buildCatalog(servers: readonly CatalogServerInput[], naming: GatewayConfig['naming'], guard: GuardOptions = DEFAULT_GUARD, exposure: CatalogExposure = DEFAULT_EXPOSURE): Catalog {
  const report: GuardReport = { held: [], findings: [], blocked: [] };
  const router = new ResourceRouter();
  for (const s of servers) router.addServerPrefix(serverUriPrefix(s.config), s.config.name);
  const lists = {} as Record<ListKind, CatalogList>;
  // The gateway's own tools keep their names: a server tool that would take one is suffixed.
  const { searchTool, callTool, listServersTool, runCodeTool } = exposure.settingsFor(undefined);
  const ui = uiPrefixes(servers.map((s) => s.config));
  for (const [server, prefix] of ui) router.addUiPrefix(prefix, server);
  const resourcePolicy = new Map(servers.map((s) => [s.config.name, uriFilterOf(s.config.resources)]));
  // MCP Apps: tools point at UI resources by URI; clients see the exposed URI (app-catalog.ts).
  const tools = exposeToolUis(allowed(servers, 'tools', guard, report), ui, resourcePolicy);
  // Disabled servers hold no namespace (their prefix may be another's: uniqueness is among enabled ones).
  const namespaces = new Map(servers.filter((s) => s.config.enabled).map((s) => [s.config.name, s.config.prefix]));
  const named: NamingContext = { naming, namespaces, report };
  lists.tools = namedList(tools.candidates, 'tool', named, new Set([searchTool, callTool, listServersTool, runCodeTool]));
  lists.prompts = namedList(allowed(servers, 'prompts', guard, report), 'prompt', named);
  const renamedUris = new Map<string, Map<string, string>>();
  const rename = (server: string, original: string, exposed: string) => {
    let mine = renamedUris.get(server);
    if (!mine) renamedUris.set(server, (mine = new Map()));
    mine.set(original, exposed);
  };
  // Whose `<uri prefix>+` namespace a URI is in: a server listing `gh+file:///x` gets its own prefix.
  const uriOwners = new Map<string, string>();
  for (const s of servers) {
    const p = serverUriPrefix(s.config);
    if (s.config.enabled && !uriOwners.has(p)) uriOwners.set(p, s.config.name);
  }
  lists.resources = uriList(allowed(servers, 'resources', guard, report), 'uri', ui, uriOwners, (e) => {
    router.addResource(e.key, { server: e.server, uri: e.original });
    if (e.key !== e.original) rename(e.server, e.original, e.key);
  });
  lists.resourceTemplates = uriList(allowed(servers, 'resourceTemplates', guard, report), 'uriTemplate', ui, uriOwners, (e, p) => router.addTemplate(e.server, e.original, p));
  const apps = appCatalog(tools.references, [...lists.resources.entries, ...lists.resourceTemplates.entries], ui, router, rename);
  const { instructions, about } = aboutServers(servers, guard, report);
  return { lists, report, resources: router, resourcePolicy, renamedUris: uiRenames(renamedUris, apps), instructions, about, exposure, apps, pins: { lock: guard.lock, newTools: guard.newTools } };
}

/**
 * The kinds whose client-visible content may differ between two snapshots. Tools also when what
 * search mode lists besides them may: the exposure settings, or what a server is for (the server
 * directory). Each session then compares the list it is served before it is told.
 */
export function changedKinds(before: Catalog, after: Catalog): ListKind[] {
  return LIST_KINDS.filter((k) => before.lists[k].hash !== after.lists[k].hash || (k === 'tools' && (before.exposure !== after.exposure || !sameAbout(before.about, after.about))));
}

export const emptyCatalog: Catalog = buildCatalog([], { separator: '__', mode: 'always' });
