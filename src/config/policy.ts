// Cross-field rules of the policy sections (unique client names and tokens, stdio.client names a
// client, every glob compiles) and their mapping onto the normalized config. Messages never
// quote values: tokens are secrets, and after `${VAR}` substitution any value may be one.

import { resolve } from 'node:path';
import { compileFilter } from '../policy/filter.js';
import { compileUriFilter } from '../policy/uri-filter.js';
import { toRoots } from './schema-roots.js';
import { formatPath, type Found, type Segment } from './problems.js';
import { NAME_PATTERN, type UserConfig } from './schema.js';
import { isRecord, type ServerEntry } from './server-entries.js';

const FILTER_KINDS = ['tools', 'prompts', 'resources'] as const;

/** The client entries of a (possibly invalid) tree, with their index in `clients`. */
function clientEntries(tree: Record<string, unknown>): { index: number; raw: Record<string, unknown> }[] {
  if (!Array.isArray(tree.clients)) return [];
  return tree.clients.flatMap((raw, index) => (isRecord(raw) ? [{ index, raw }] : []));
}

/**
 * Every glob of a filter value, with its path. Tolerates invalid shapes (zod reports those).
 * Each glob is compiled on its own so that the problem points at the very glob that is wrong.
 */
function globProblems(value: unknown, path: Segment[], uris = false): Found[] {
  const lists: [unknown, Segment[]][] = Array.isArray(value)
    ? [[value, path]]
    : isRecord(value)
      ? [
          [value.allow, [...path, 'allow']],
          [value.deny, [...path, 'deny']],
        ]
      : [];
  const problems: Found[] = [];
  for (const [list, listPath] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((glob, i) => {
      if (typeof glob !== 'string') return;
      try {
        // Resource globs must also be able to match a canonical URI (a dead deny rule is a trap).
        (uris ? compileUriFilter : compileFilter)({ allow: [glob], deny: [] });
      } catch (err) {
        // compileFilter quotes the glob; the path already says which one it is.
        const message = err instanceof Error ? err.message : String(err);
        const prefix = `invalid glob ${JSON.stringify(glob)}: `;
        const reason = message.startsWith(prefix) ? message.slice(prefix.length) : 'invalid glob';
        problems.push({ path: [...listPath, i], message: `is not a valid glob: ${reason}` });
      }
    });
  }
  return problems;
}

/** The catalog section's own cross-field rules: distinct gateway tool names, valid alwaysVisible globs. */
function catalogProblems(tree: Record<string, unknown>): Found[] {
  const problems: Found[] = [];
  const catalog = isRecord(tree.catalog) ? tree.catalog : {};
  // The gateway's own tools, in the order their defaults are listed: each name must be its own.
  const own: [string, string][] = [
    ['searchTool', typeof catalog.searchTool === 'string' ? catalog.searchTool : 'search_tools'],
    ['callTool', typeof catalog.callTool === 'string' ? catalog.callTool : 'call_tool'],
    ['listServersTool', typeof catalog.listServersTool === 'string' ? catalog.listServersTool : 'list_servers'],
    ['runCodeTool', typeof catalog.runCodeTool === 'string' ? catalog.runCodeTool : 'run_code'],
  ];
  own.forEach(([key, name], i) => {
    const earlier = own.slice(0, i).find(([, other]) => other === name);
    if (earlier) problems.push({ path: ['catalog', key], message: `is the same name as catalog.${earlier[0]} ("${name}"): the gateway tools need distinct names` });
  });
  problems.push(...globProblems(catalog.alwaysVisible, ['catalog', 'alwaysVisible']));
  for (const { index, raw } of clientEntries(tree)) {
    if (isRecord(raw.catalog)) problems.push(...globProblems(raw.catalog.alwaysVisible, ['clients', index, 'catalog', 'alwaysVisible']));
  }
  return problems;
}

/** A match selects OAuth principals: it needs listen.auth, and at least one condition. */
function matchProblems(match: unknown, path: Segment[], oauthOn: boolean): Found[] {
  if (!isRecord(match)) return [];
  if (!oauthOn) return [{ path, message: 'matches OAuth tokens, but listen.auth is not set: no token can be matched' }];
  if (match.scope === undefined && match.sub === undefined && match.group === undefined) {
    return [{ path, message: 'has no condition (scope, sub or group): it would match nobody' }];
  }
  return [];
}

/** Problems of the policy sections that no single field shows. Tolerates invalid fields. */
export function policyProblems(tree: unknown, servers: readonly ServerEntry[]): Found[] {
  const problems: Found[] = [];
  if (!isRecord(tree)) return problems;
  const at = (path: Segment[], message: string) => problems.push({ path, message });

  for (const s of servers) for (const kind of FILTER_KINDS) problems.push(...globProblems(s.raw[kind], [...s.path, kind], kind === 'resources'));
  problems.push(...catalogProblems(tree));

  const clients = clientEntries(tree);
  const oauthOn = isRecord(tree.listen) && tree.listen.auth !== undefined && tree.listen.auth !== null;
  const stdioClient = isRecord(tree.stdio) && typeof tree.stdio.client === 'string' ? tree.stdio.client : undefined;
  const nameOwner = new Map<string, number>();
  const tokenOwner = new Map<string, number>();
  for (const { index, raw } of clients) {
    const path: Segment[] = ['clients', index];
    for (const kind of FILTER_KINDS) problems.push(...globProblems(raw[kind], [...path, kind], kind === 'resources'));
    const name = typeof raw.name === 'string' && NAME_PATTERN.test(raw.name) ? raw.name : undefined;
    if (name !== undefined) {
      const first = nameOwner.get(name);
      if (first !== undefined) at([...path, 'name'], `duplicate name (also used by ${formatPath(['clients', first])})`);
      else nameOwner.set(name, index);
    }
    // "" comes from an unset variable, which is reported as such.
    if (typeof raw.token === 'string' && raw.token !== '') {
      const first = tokenOwner.get(raw.token);
      if (first !== undefined) {
        at([...path, 'token'], `same token as ${formatPath(['clients', first])}: each client needs its own token`);
      } else tokenOwner.set(raw.token, index);
    }
    // A profile without a token or a match is unreachable over HTTP; unless stdio serves it, it is
    // a mistake (most likely a forgotten or misspelt token key), not a silent no-op.
    if (raw.token === undefined && raw.match === undefined && name !== undefined && name !== stdioClient) {
      at(path, 'has no token, so no HTTP request can select it: give it a token (or a match, with listen.auth), or serve it on stdio (stdio.client)');
    }
    problems.push(...matchProblems(raw.match, [...path, 'match'], oauthOn));
  }
  if (stdioClient !== undefined && !nameOwner.has(stdioClient)) {
    at(['stdio', 'client'], 'names no configured client: it must be the name of an entry in clients');
  }
  return problems;
}

/**
 * Resource rules with `fileCase: auto` resolved: file systems on macOS and Windows ignore case
 * (by default), so there `/SECRET/x` must meet a rule on `/secret/*`. Servers elsewhere (a remote
 * HTTP server) may differ: the key says it per server and per profile.
 */
export function resolveFileCase<R extends { fileCase: 'auto' | 'sensitive' | 'insensitive' }>(rules: R, platform: string = process.platform) {
  const fileCase: 'sensitive' | 'insensitive' = rules.fileCase !== 'auto' ? rules.fileCase : platform === 'darwin' || platform === 'win32' ? 'insensitive' : 'sensitive';
  return { ...rules, fileCase };
}

/** Maps the policy sections of a file that passed validation onto the normalized config. */
export function toPolicyConfig(data: UserConfig, baseDir: string) {
  const { auditLog, ...sanitize } = data.sanitize;
  return {
    /** Empty: no client profiles, every HTTP request is served the whole catalog. */
    clients: data.clients.map(({ roots, ...c }) => ({ ...c, resources: resolveFileCase(c.resources), ...(roots !== undefined ? { roots: toRoots(roots, baseDir) } : {}) })),
    /** What a server asking roots/list is told when no client answers (absent: an empty list at start-up). */
    ...(data.roots !== undefined ? { roots: toRoots(data.roots, baseDir) } : {}),
    /** The profile the stdio face serves (a name in `clients`); absent: the whole catalog. */
    ...(data.stdio?.client !== undefined ? { stdioClient: data.stdio.client } : {}),
    sanitize: {
      ...sanitize,
      /** Absolute path of the JSON-lines audit file; absent: audit entries go to the log. */
      ...(auditLog !== undefined ? { auditLog: resolve(baseDir, auditLog) } : {}),
    },
    pinning: {
      /** Absolute path. */
      lockFile: resolve(baseDir, data.pinning.lockFile),
      newTools: data.pinning.newTools,
    },
  };
}
