// Rules about server entries that no single field shows, one concern per function: the transport
// shape (command xor url, keys of the other kind), Claude Desktop's `type`/`disabled`, names, and
// prefixes. Each tolerates invalid fields (the schema reports those) and never quotes a value.

import { perUserProblems } from './per-user-check.js';
import { didYouMean, formatPath, type Found } from './problems.js';
import { MAX_NAME_LENGTH, PREFIX_PATTERN, SEPARATOR_PATTERN } from './schema-values.js';
import { isEnabled, isRecord, transportOfType, type ServerEntry } from './server-entries.js';

const STDIO_ONLY = ['args', 'env', 'cwd', 'inheritEnv'] as const;
const HTTP_ONLY = ['transport', 'headers', 'auth'] as const;
// (`userSecrets` belongs to both kinds: it describes the secrets of headers or env.)

/** Exactly one of command (stdio) and url (HTTP), and no key that only the other kind reads. */
export function transportShapeProblems(e: ServerEntry): Found[] {
  const hasCommand = e.raw.command !== undefined;
  const hasUrl = e.raw.url !== undefined;
  if (hasCommand && hasUrl) {
    return [{ path: e.path, message: 'has both command and url: a server is either stdio (command) or HTTP (url)' }];
  }
  if (!hasCommand && !hasUrl) {
    // A misspelt `comand:` is reported as an unknown key; saying that command is missing adds nothing.
    const misspelt = Object.keys(e.raw).some((k) => ['command', 'url'].includes(didYouMean(k, ['command', 'url']) ?? ''));
    return misspelt ? [] : [{ path: e.path, message: 'needs either command (a stdio server) or url (an HTTP server)' }];
  }
  const [foreign, message] = hasCommand ? [HTTP_ONLY, 'only applies to HTTP servers (url)'] : [STDIO_ONLY, 'only applies to stdio servers (command)'];
  return foreign.filter((key) => e.raw[key] !== undefined).map((key) => ({ path: [...e.path, key], message }));
}

/** Claude Desktop's `type` must agree with command/url and transport; `disabled` with `enabled`. */
export function claudeProblems(e: ServerEntry): Found[] {
  const problems: Found[] = [];
  const { type, transport, enabled, disabled } = e.raw;
  if (typeof type === 'string') {
    if (type === 'stdio' && e.raw.url !== undefined) problems.push({ path: [...e.path, 'type'], message: 'is stdio, but the server has a url' });
    const implied = transportOfType(type);
    if (implied && e.raw.command !== undefined) {
      problems.push({ path: [...e.path, 'type'], message: `is ${type}, but the server has a command` });
    }
    if (implied && typeof transport === 'string' && transport !== implied) {
      problems.push({ path: [...e.path, 'transport'], message: `contradicts type ${type}` });
    }
  }
  if (typeof enabled === 'boolean' && enabled === disabled) problems.push({ path: [...e.path, 'disabled'], message: 'contradicts enabled' });
  return problems;
}

/** An mcpServers key is the server's name; one that cannot be made into a name is a problem. */
export function keyNameProblems(e: ServerEntry): Found[] {
  if (!e.claude || e.name) return [];
  return [{ path: e.namePath, message: `cannot be turned into a server name: use 1 to ${MAX_NAME_LENGTH} lowercase letters, digits and -` }];
}

/**
 * Names are unique. Exact names claim first; a name derived from an mcpServers key must not
 * collide with one, nor with another derived one. `taken` gets the entries whose name was
 * reported, so that their default prefix is not reported again.
 */
export function nameProblems(entries: readonly ServerEntry[], taken = new Set<ServerEntry>()): Found[] {
  const problems: Found[] = [];
  const owner = new Map<string, ServerEntry>();
  for (const e of entries) {
    if (!e.name || e.normalizedFrom !== undefined) continue;
    const first = owner.get(e.name);
    if (first) {
      problems.push({ path: e.namePath, message: `duplicate name (also used by ${formatPath(first.path)})` });
      taken.add(e);
    } else owner.set(e.name, e);
  }
  const derived = entries.filter((e) => e.name && e.normalizedFrom !== undefined);
  for (const e of derived) {
    const exact = owner.get(e.name!);
    const twins = derived.filter((d) => d !== e && d.name === e.name);
    if (exact) {
      problems.push({ path: e.namePath, message: `would become the name "${e.name}", which ${formatPath(exact.path)} already uses; rename it` });
    } else if (twins.length) {
      const others = twins.map((d) => formatPath(d.path)).join(', ');
      problems.push({ path: e.namePath, message: `would become the name "${e.name}", as would ${others}; rename one` });
    }
    if (exact || twins.length) taken.add(e);
  }
  return problems;
}

/**
 * Prefixes are unique among enabled servers, except "" (unprefixed, any number of them). A prefix
 * that defaults to a name already reported (`taken`) is not reported again.
 */
export function prefixProblems(entries: readonly ServerEntry[], taken: ReadonlySet<ServerEntry> = new Set()): Found[] {
  const problems: Found[] = [];
  const owner = new Map<string, ServerEntry>();
  for (const e of entries) {
    const explicit = typeof e.raw.prefix === 'string' ? e.raw.prefix : undefined;
    if (!isEnabled(e.raw) || (explicit === undefined && taken.has(e))) continue;
    const prefix = explicit === undefined ? e.name : PREFIX_PATTERN.test(explicit) ? explicit : undefined;
    if (prefix === undefined || prefix === '') continue;
    const first = owner.get(prefix);
    if (first) {
      const how = explicit === undefined ? ' (the prefix defaults to the name)' : '';
      problems.push({
        path: [...e.path, 'prefix'],
        message: `same prefix as ${formatPath(first.path)}${how}; prefixes of enabled servers must be unique`,
      });
    } else owner.set(prefix, e);
  }
  return problems;
}

/** The file's `naming.separator`, or the default when it is absent or invalid (the schema reports that). */
export function separatorOf(tree: unknown): string {
  const naming = isRecord(tree) && isRecord(tree.naming) ? tree.naming : {};
  return typeof naming.separator === 'string' && SEPARATOR_PATTERN.test(naming.separator) ? naming.separator : '__';
}

/**
 * No enabled server's `<prefix><separator>` may begin another's (`gh` and `gh-enterprise` with the
 * separator `-`): a name such as `gh-enterprise-x` could then be either server's (`gh`'s tool
 * `enterprise-x`), and a profile allowed `gh-*` would reach both. Equal prefixes are left to
 * prefixProblems.
 */
export function namespaceProblems(entries: readonly ServerEntry[], separator: string, taken: ReadonlySet<ServerEntry> = new Set()): Found[] {
  const problems: Found[] = [];
  const spaces: { e: ServerEntry; start: string; how: string }[] = [];
  for (const e of entries) {
    const explicit = typeof e.raw.prefix === 'string' ? e.raw.prefix : undefined;
    if (!isEnabled(e.raw) || (explicit === undefined && taken.has(e))) continue;
    const prefix = explicit === undefined ? e.name : PREFIX_PATTERN.test(explicit) ? explicit : undefined;
    if (prefix === undefined || prefix === '') continue;
    spaces.push({ e, start: prefix + separator, how: explicit === undefined ? ' (the prefix defaults to the name)' : '' });
  }
  for (const inner of spaces) {
    const outer = spaces.find((o) => o !== inner && o.start.length < inner.start.length && inner.start.startsWith(o.start));
    if (!outer) continue;
    problems.push({
      path: [...inner.e.path, 'prefix'],
      message: `begins with the prefix of ${formatPath(outer.e.path)} and the separator${inner.how}: a name in this server's namespace could be a tool of that one; pick prefixes (or a separator) where neither begins the other`,
    });
  }
  return problems;
}

/**
 * Every problem above: each entry's own (in entry order), then names, then prefixes. (The loader
 * sorts by position in the file; this order decides between problems at the same place.)
 */
export function crossCheck(entries: readonly ServerEntry[], separator = '__'): Found[] {
  const taken = new Set<ServerEntry>();
  const perEntry = entries.flatMap((e) => [...keyNameProblems(e), ...transportShapeProblems(e), ...claudeProblems(e), ...perUserProblems(e)]);
  return [...perEntry, ...nameProblems(entries, taken), ...prefixProblems(entries, taken), ...namespaceProblems(entries, separator, taken)];
}
