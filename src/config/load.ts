// Reads a config file: YAML (or JSON) → `${VAR}` substitution → validation → normalized
// GatewayConfig. Every problem found is collected and thrown as one ConfigError.

import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isNode, parseDocument, type Document, type YAMLError } from 'yaml';
import { substituteTree, type Segment } from './env.js';
import { asClientFile } from './client-file.js';
import { crossCheck, separatorOf } from './cross-check.js';
import { parseWithout } from './excused.js';
import { credentialsProblems, misplacedUserRefs } from './per-user-check.js';
import { stateProblems } from './schema-state.js';
import { toGatewayConfig } from './normalize.js';
import { policyProblems } from './policy.js';
import { errorMap, formatPath, translateIssues, type Found } from './problems.js';
import { configSchema } from './schema.js';
import { scalarKindsAt } from './schema-walk.js';
import { isEnabled, serverEntries } from './server-entries.js';
import { ConfigError, type ConfigProblem, type GatewayConfig } from './types.js';

/** Where the package keeps its default config, relative to the package root. */
export const DEFAULT_CONFIG_PATH = 'config/switchboard.yaml';

/**
 * The config a command reads without `-c`: $SWITCHBOARD_CONFIG, else the one this installation
 * ships (`config/switchboard.yaml` beside `dist/`, found from the entry point's URL), so the
 * command works from any folder, not only from a clone's root.
 */
export function defaultConfigPath(entryUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.SWITCHBOARD_CONFIG;
  if (chosen !== undefined && chosen.trim() !== '') return chosen;
  return fileURLToPath(new URL(`../${DEFAULT_CONFIG_PATH}`, entryUrl));
}

export interface ParseOptions {
  /** Shown in the error message; not read. */
  file?: string;
  /** Relative `cwd`s resolve against this folder (the config file's). */
  baseDir: string;
  /** Where `${VAR}` values come from. Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Told about what was read differently from how it was written (a client's config file). */
  onNote?: (message: string) => void;
  /**
   * Whether the HTTP face will be opened (default true). When not (`serve --stdio`, `check`,
   * `lock`, `search`), an unset variable in a setting only that face reads (see httpOnly) is not
   * a problem: the setting is dropped, and `onWarning` is told.
   */
  httpFace?: boolean;
  onWarning?: (warning: ConfigProblem) => void;
}

/**
 * Settings only the HTTP face reads: `listen` (but `stateKey`, which signs cursors on stdio too)
 * and a client profile's `token` and `match` (how an HTTP request picks its profile).
 */
export function httpOnly(path: readonly Segment[]): boolean {
  if (path[0] === 'listen') return path[1] !== 'stateKey';
  return path[0] === 'clients' && typeof path[1] === 'number' && (path[2] === 'token' || path[2] === 'match');
}

/** Parses and validates a config file's text. Throws ConfigError listing every problem. */
export function parseConfig(text: string, options: ParseOptions): GatewayConfig {
  const { file, baseDir, env = process.env, httpFace = true } = options;
  const fail = (problems: ConfigProblem[]): never => {
    throw new ConfigError(dedupe(problems), file);
  };

  const doc = parseDocument(text, { merge: true, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) fail(doc.errors.map(yamlProblem));
  let tree: unknown;
  try {
    tree = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    fail([{ path: '', message: `cannot read the YAML: ${err instanceof Error ? err.message : String(err)}` }]);
  }
  if (tree === null || tree === undefined) {
    fail([{ path: '', message: 'the file is empty: expected a mapping with keys such as listen and servers' }]);
  }
  if (typeof tree !== 'object' || Array.isArray(tree)) {
    const got = Array.isArray(tree) ? 'a list' : `a single ${typeof tree} value`;
    fail([{ path: '', message: `the top level must be a mapping with keys such as listen and servers, not ${got}` }]);
  }

  const cycle = findCycle(tree, [], new Set());
  if (cycle) fail([{ path: formatPath(cycle), message: 'an alias refers to its own anchor: the data would be endless' }]);

  // Claude Desktop's whole file, say: its servers are read, its own settings left alone (and
  // their values never substituted, so a `${` in them cannot fail the load).
  const client = asClientFile(text, tree as Record<string, unknown>);
  if (client) {
    tree = client.tree;
    options.onNote?.(`${file ?? 'the config'} is an MCP client's config file: reading its mcpServers, ignoring ${client.ignored.join(', ')}`);
  }

  const substitution = substituteTree(tree, env, coerceSubstituted);
  const data = substitution.value;
  const entries = serverEntries(data);
  const found: Found[] = [...substitution.malformed.map((m) => ({ path: m.path, message: m.message })), ...misplacedUserRefs(substitution.userRefs)];

  // An unset variable is a problem unless its server is disabled (it will not start). Either
  // way the field's value ("") is not checked further: one problem per cause.
  // (A name is always needed, so it is never excused.)
  for (const u of substitution.unset) {
    const entry = entries.find((e) => e.path.every((seg, i) => u.path[i] === seg));
    const excused = entry && !isEnabled(entry.raw) && !(u.path.length === 3 && u.path[2] === 'name');
    const message = `environment variable ${u.name} is not set`;
    if (!excused && !httpFace && httpOnly(u.path)) {
      options.onWarning?.({ path: formatPath(u.path), message: `${message}: only the HTTP face reads this, and serve over HTTP refuses to start without it` });
    } else if (!excused) found.push({ path: u.path, message });
  }
  const unsetPaths = substitution.unset.map((u) => u.path);
  const isUnder = (path: Segment[]) => unsetPaths.some((u) => u.length <= path.length && u.every((seg, i) => path[i] === seg));

  // jitless: zod's eval-compiled fast path pays off over many parses; a config is parsed once,
  // and compiling it cost more start-up time than it saved (bench/NOTES.md, start-up).
  const result = configSchema.safeParse(data, { error: errorMap, reportInput: false, jitless: true });
  if (!result.success) found.push(...translateIssues(result.error.issues).filter((p) => !isUnder(p.path)));
  found.push(...crossCheck(entries, separatorOf(data)), ...policyProblems(data, entries), ...credentialsProblems(data), ...stateProblems(data));

  if (found.length > 0) fail(inFileOrder(doc, found));
  if (result.success) return toGatewayConfig(result.data, resolve(baseDir));
  // Without problems left, the parse failed only on excused fields (of disabled servers, or that
  // only the HTTP face reads).
  const excused = parseWithout(
    data,
    result.error.issues.map((i) => i.path as Segment[]),
    (path) => !httpFace && httpOnly(path),
  );
  return excused.success ? toGatewayConfig(excused.data, resolve(baseDir)) : fail(inFileOrder(doc, translateIssues(excused.error.issues)));
}

/** Problems sorted by where their path points in the file (stable for equal positions). */
function inFileOrder(doc: Document, found: Found[]): ConfigProblem[] {
  const offsetOf = (path: Segment[]): number => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n), true);
      if (isNode(node) && node.range) return node.range[0];
    }
    return -1;
  };
  return found
    .map((f, i) => ({ f, i, offset: offsetOf(f.path) }))
    .sort((a, b) => a.offset - b.offset || a.i - b.i)
    .map(({ f }) => ({ path: formatPath(f.path), message: f.message }));
}

/** Reads and parses a config file; relative `cwd`s resolve against the file's folder. */
export async function loadConfigFile(path: string, env?: NodeJS.ProcessEnv, onNote?: (message: string) => void, faces?: Pick<ParseOptions, 'httpFace' | 'onWarning'>): Promise<GatewayConfig> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? `file not found: ${absolute}`
        : code === 'EISDIR'
          ? `${absolute} is a folder, not a file`
          : code === 'EACCES' || code === 'EPERM'
            ? `cannot read ${absolute}: permission denied`
            : `cannot read ${absolute}: ${code ?? String(err)}`;
    throw new ConfigError([{ path: '', message }], path);
  }
  return parseConfig(text, { file: path, baseDir: dirname(absolute), env, onNote, ...faces });
}

/** `line 3:5: Map keys must be unique`, without yaml's multi-line excerpt. */
function yamlProblem(err: YAMLError): ConfigProblem {
  const firstLine = err.code === 'MULTIPLE_DOCS' ? 'the file holds several YAML documents (separated by ---); use one' : err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const pos = err.linePos?.[0];
  return { path: '', message: pos ? `line ${pos.line}:${pos.col}: ${firstLine}` : firstLine };
}

/** The path of a node that contains itself (`a: &x [*x]` parses into a circular structure). */
function findCycle(node: unknown, path: Segment[], ancestors: Set<object>): Segment[] | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (ancestors.has(node)) return path;
  ancestors.add(node);
  const children: [Segment, unknown][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
  for (const [key, child] of children) {
    const found = findCycle(child, [...path, key], ancestors);
    if (found) return found;
  }
  ancestors.delete(node);
  return undefined;
}

/** A substituted `"8808"` where a number goes becomes 8808; `"false"` where a boolean goes, false. */
function coerceSubstituted(path: Segment[], value: string): unknown {
  const kinds = scalarKindsAt(path);
  if (kinds.number && /^-?(\d+(\.\d*)?|\.\d+)$/.test(value.trim())) return Number(value);
  if (kinds.boolean && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
