// A client profile's view of the catalog: only what its filters allow (matched against exposed
// names and URIs), only read-only tools if it is read-only, and names refitted when it needs
// shorter ones (maxLength 64 also drops '.', as the big model APIs require). Computed once per
// snapshot and profile (and so is its server directory); handlers look names up in the view, so
// what a profile cannot see it cannot call either.

import type { ClientProfile } from '../config/types.js';
import { LIST_KINDS, type ListKind } from '../protocol/mcp.js';
import { valueAt } from '../protocol/json.js';
import { compileFilter } from '../policy/filter.js';
import { ALLOW_EVERY_URI, compileUriFilter } from '../policy/uri-filter.js';
import type { Catalog, CatalogEntry, CatalogList } from './build.js';
import { listOf } from './build.js';
import { rewriteToolUi } from './ui-uris.js';
import { exposeTools, type Exposure } from './tool-exposure.js';
import { serverDirectory, type ServerDirectory } from './server-directory.js';
import { assignNames, MODEL_API_NAME_RULES, SPEC_NAME_RULES, type NameRequest, type NameRules } from './naming.js';

export interface CatalogView {
  lists: Record<ListKind, CatalogList>;
  /** Whether this profile may read (or subscribe to) an exposed URI that was never listed. */
  allowsUri(uri: string): boolean;
  /** Whether anything of this server is in the view (a profile that sees nothing of it hears nothing from it). */
  seesServer(server: string): boolean;
  /** Which tools tools/list shows (full, search or code mode) and what each costs in tokens; computed on first use. */
  exposure(): Exposure;
  /** The view's entry for a catalog tool name (names differ where the profile refits them). */
  toolByCatalogKey(key: string): CatalogEntry | undefined;
  /** The servers this view has a model-visible tool of, one line each (search mode); computed on first use. */
  directory(): ServerDirectory;
}

/** The lazily computed parts of a view, once per view. */
function lazyParts(catalog: Catalog, profile: ClientProfile | undefined, lists: Record<ListKind, CatalogList>) {
  let exposure: Exposure | undefined;
  let byCatalogKey: Map<string, CatalogEntry> | undefined;
  let directory: ServerDirectory | undefined;
  const directoryOnce = () => (directory ??= serverDirectory(catalog.about, lists.tools));
  return {
    directory: directoryOnce,
    exposure: () => (exposure ??= exposeTools(lists.tools, catalog.exposure.settingsFor(profile), catalog.exposure.counter, directoryOnce, catalog.exposure.code)),
    toolByCatalogKey: (key: string) => {
      byCatalogKey ??= new Map(lists.tools.entries.map((e) => [e.catalogKey ?? e.key, e]));
      return byCatalogKey.get(key);
    },
  };
}

/** A `seesServer` over the view's lists, computed once on first use. */
function serversOf(lists: Record<ListKind, CatalogList>): (server: string) => boolean {
  let servers: Set<string> | undefined;
  return (server) => {
    if (!servers) {
      servers = new Set();
      for (const kind of LIST_KINDS) for (const e of lists[kind].entries) servers.add(e.server);
    }
    return servers.has(server);
  };
}

const unrestricted = new WeakMap<Catalog, CatalogView>();
const cache = new WeakMap<Catalog, WeakMap<ClientProfile, CatalogView>>();

export function viewFor(catalog: Catalog, profile: ClientProfile | undefined): CatalogView {
  if (!profile) {
    let v = unrestricted.get(catalog);
    if (!v) unrestricted.set(catalog, (v = { lists: catalog.lists, allowsUri: ALLOW_EVERY_URI, seesServer: () => true, ...lazyParts(catalog, undefined, catalog.lists) }));
    return v;
  }
  let byProfile = cache.get(catalog);
  if (!byProfile) cache.set(catalog, (byProfile = new WeakMap()));
  let view = byProfile.get(profile);
  if (!view) byProfile.set(profile, (view = buildView(catalog, profile)));
  return view;
}

/** One rules object per length: naming compiles and memoises by rules object. */
const rulesByLength = new Map<number, NameRules | undefined>();

function rulesFor(maxLength: number): NameRules | undefined {
  if (!rulesByLength.has(maxLength)) {
    const base = maxLength <= 64 ? MODEL_API_NAME_RULES : maxLength < SPEC_NAME_RULES.maxLength ? SPEC_NAME_RULES : undefined;
    rulesByLength.set(maxLength, base && { ...base, maxLength });
  }
  return rulesByLength.get(maxLength);
}

function buildView(catalog: Catalog, profile: ClientProfile): CatalogView {
  // Resource URIs are judged in canonical form; templates by their text (they are not URIs).
  const uris = compileUriFilter(profile.resources);
  const filters: Record<ListKind, (key: string) => boolean> = {
    tools: compileFilter(profile.tools),
    prompts: compileFilter(profile.prompts),
    resources: uris,
    resourceTemplates: compileFilter(profile.resources),
  };
  const rules = rulesFor(profile.naming.maxLength);
  const lists = {} as Record<ListKind, CatalogList>;
  for (const kind of LIST_KINDS) {
    const allow = filters[kind];
    let entries = catalog.lists[kind].entries.filter((e) => allow(e.key));
    // Read-only: only tools the server itself marks read-only (an absent hint is not a yes).
    if (kind === 'tools' && profile.readOnly) entries = entries.filter((e) => valueAt(e.item, 'annotations', 'readOnlyHint') === true);
    if (rules && (kind === 'tools' || kind === 'prompts')) entries = refit(entries, rules, kind === 'tools' ? reservedNames(catalog, profile) : undefined);
    let changed = rules !== undefined;
    if (kind === 'tools') {
      const pointed = withoutDeniedUi(entries, uris);
      changed ||= pointed !== entries;
      entries = pointed;
    }
    lists[kind] = entries.length === catalog.lists[kind].entries.length && !changed ? catalog.lists[kind] : listOf(entries);
  }
  return { lists, allowsUri: uris, seesServer: serversOf(lists), ...lazyParts(catalog, profile, lists) };
}

/**
 * Tools without their pointer to a UI resource the profile may not read (`_meta.ui.resourceUri`
 * and the flat legacy key): a host would only fetch it to be refused, and the URI names what the
 * profile is not to see. The tool itself stays, as a plain tool. The same array when none changes.
 */
function withoutDeniedUi(entries: CatalogEntry[], allowsUri: (uri: string) => boolean): CatalogEntry[] {
  let out: CatalogEntry[] | undefined;
  entries.forEach((e, i) => {
    const item = rewriteToolUi(e.item, (uri) => (allowsUri(uri) ? uri : null));
    if (item === e.item) return;
    out ??= entries.slice();
    out[i] = { ...e, item };
  });
  return out ?? entries;
}

/** New names within the profile's rules; deterministic and unique, like the catalog's own. */
function refit(entries: CatalogEntry[], rules: NameRules, reserved?: ReadonlySet<string>): CatalogEntry[] {
  const names = assignNames(entries.map(requestOf), { separator: '', mode: 'always', rules, reserved });
  return entries.map((e, i) => (names[i] === e.key ? e : refitted(e, names[i]!)));
}

// Per catalog entry (kept across rebuilds while its item is unchanged, build.ts): its name request,
// and its refitted copy, so a rebuild does not name, copy and digest every tool of every view again.
const requests = new WeakMap<CatalogEntry, NameRequest>();
const copies = new WeakMap<CatalogEntry, CatalogEntry>();

function requestOf(e: CatalogEntry): NameRequest {
  let r = requests.get(e);
  if (r === undefined) requests.set(e, (r = { server: e.server, prefix: '', name: e.key }));
  return r;
}

function refitted(e: CatalogEntry, name: string): CatalogEntry {
  const hit = copies.get(e);
  if (hit && hit.key === name) return hit;
  const copy = { ...e, key: name, catalogKey: e.key, item: { ...e.item, name } };
  copies.set(e, copy);
  return copy;
}

/** The gateway's own tool names, which no refitted name may take either. */
function reservedNames(catalog: Catalog, profile: ClientProfile): ReadonlySet<string> {
  const s = catalog.exposure.settingsFor(profile);
  return new Set([s.searchTool, s.callTool, s.listServersTool, s.runCodeTool]);
}
