// Tool pinning (rug-pull defence): a SHA-256 of each tool's definition as the server sent it, a
// lock file of them per server, and the split of a server's tools into allowed and held back.
// Digests are canonical (key order never matters); lock files are written atomically, sorted.
// Pinned: what tells a model what a tool is and does, and every field the gateway's own decisions
// about who may see or call it rest on (MCP Apps visibility, task support, readOnlyHint).

import { createHash } from 'node:crypto';
import type { JsonObject } from '../protocol/json.js';

/**
 * The parts of a tool that tell a model what it is and does, and that decide who may see or call
 * it: `annotations` (readOnlyHint: a read-only profile's list), `execution` (taskSupport: whether a
 * call must be a task), `inputSchema` (the headers a call must repeat). A change to any is a new tool.
 */
const PINNED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution'] as const;
/**
 * The keys of a tool's `_meta` the gateway acts on: MCP Apps' `ui` (visibility: whether a model may
 * see and call it; resourceUri: its app) and the older flat `ui/resourceUri`. Others are free.
 */
const PINNED_META = ['ui', 'ui/resourceUri'] as const;
/** What a lock written before `execution` and `_meta` were pinned covers (see checkPins). */
const LEGACY_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** JSON with object keys sorted at every level; otherwise what JSON.stringify gives. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonicalJson(v))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  // Default sort compares UTF-16 code units: the same order on every machine and locale.
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * sha256 of the canonical JSON (sorted keys, recursively) of { name, title, description,
 * inputSchema, outputSchema, annotations, execution, _meta: { ui, "ui/resourceUri" } } of a tool
 * as the SERVER sent it (before any sanitizing or renaming), as "sha256:<hex>". Fields the tool
 * does not have are left out, `_meta` too when it has neither key: a tool with none of the later
 * fields has the digest a lock of the six first ones gave it.
 */
export function toolDigest(tool: JsonObject): string {
  // Once per tool object: a refetch keeps unchanged tools as they were (outbound/list-intern.ts).
  let digest = digests.get(tool);
  if (digest !== undefined) return digest;
  const pinned = pick(tool, PINNED_FIELDS);
  const meta = tool._meta !== null && typeof tool._meta === 'object' ? pick(tool._meta as JsonObject, PINNED_META) : {};
  if (Object.keys(meta).length > 0) pinned._meta = meta;
  digest = digestOf(pinned);
  digests.set(tool, digest);
  return digest;
}

const digests = new WeakMap<JsonObject, string>();

/** The digest a lock written before `execution` and `_meta` were pinned holds for the tool. */
function legacyDigest(tool: JsonObject): string {
  return digestOf(pick(tool, LEGACY_FIELDS));
}

function pick(from: JsonObject, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

const digestOf = (pinned: Record<string, unknown>) => `sha256:${createHash('sha256').update(canonicalJson(pinned)).digest('hex')}`;

export interface LockFile {
  version: 1;
  /** ISO time the lock was built. */
  generated: string;
  servers: Record<string, ServerPins>;
}

export interface ServerPins {
  tools: Record<string /* original tool name */, string /* digest */>;
  /** Skills (SEP-2640): the server's skill URI → skillDigest of its entry. Absent in older locks. */
  skills?: Record<string, string>;
}

/**
 * sha256 of the canonical JSON of a skill entry's `uri`, `frontmatter` and `resources` as the
 * SERVER sent them: the manifest carries every file's own digest and size, so a change to any file
 * of the skill, its metadata, or the set of its files changes this digest. Like the files'
 * digests it is only as good as the server that sent it: not a security boundary.
 */
export function skillDigest(entry: JsonObject): string {
  return digestOf(pick(entry, ['uri', 'frontmatter', 'resources']));
}

const hasOwn = (obj: object, key: string) => Object.hasOwn(obj, key);
/** Sets a plain own property, even for a key such as "__proto__". */
const setOwn = (obj: object, key: string, value: unknown) => Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });

/** The same lock with servers and tools in sorted order, so that the file diffs cleanly. */
function sortedLock(lock: LockFile): LockFile {
  const servers = {};
  for (const server of Object.keys(lock.servers).sort()) {
    const tools = {};
    const given = lock.servers[server]!.tools;
    for (const name of Object.keys(given).sort()) setOwn(tools, name, given[name]);
    const entry: ServerPins = { tools };
    const skills = lock.servers[server]!.skills;
    if (skills !== undefined) {
      entry.skills = {};
      for (const uri of Object.keys(skills).sort()) setOwn(entry.skills, uri, skills[uri]);
    }
    setOwn(servers, server, entry);
  }
  return { version: 1, generated: lock.generated, servers };
}

/** A lock of every tool of every server given. A name a server lists twice keeps its first definition. */
export function buildLock(servers: { name: string; tools: JsonObject[] }[]): LockFile {
  const lock: LockFile = { version: 1, generated: new Date().toISOString(), servers: {} };
  for (const server of servers) {
    const tools: Record<string, string> = hasOwn(lock.servers, server.name) ? lock.servers[server.name]!.tools : {};
    for (const tool of server.tools) {
      if (typeof tool?.name !== 'string' || hasOwn(tools, tool.name)) continue;
      setOwn(tools, tool.name, toolDigest(tool));
    }
    setOwn(lock.servers, server.name, { tools });
  }
  return sortedLock(lock);
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why `data` is not a LockFile, or undefined when it is one. */
function lockProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return 'expected a JSON object';
  if (data.version !== 1) {
    return typeof data.version === 'number' ? `unsupported version ${data.version} (this Switchboard reads version 1)` : '"version" must be 1';
  }
  if (typeof data.generated !== 'string') return '"generated" must be a string (an ISO time)';
  if (!isRecord(data.servers)) return '"servers" must be an object';
  for (const [server, entry] of Object.entries(data.servers)) {
    const at = `servers[${JSON.stringify(server)}]`;
    if (!isRecord(entry) || !isRecord(entry.tools)) return `${at} must be an object with a "tools" object`;
    for (const [name, digest] of Object.entries(entry.tools)) {
      if (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest)) {
        return `${at}.tools[${JSON.stringify(name)}] must be "sha256:" and 64 hex digits`;
      }
    }
    if (entry.skills === undefined) continue;
    if (!isRecord(entry.skills)) return `${at}.skills must be an object`;
    for (const [uri, digest] of Object.entries(entry.skills)) {
      if (typeof digest !== 'string' || !DIGEST_PATTERN.test(digest)) return `${at}.skills[${JSON.stringify(uri)}] must be "sha256:" and 64 hex digits`;
    }
  }
  return undefined;
}

/**
 * The LockFile a lock file's text holds; throws a clear Error (the file named by `path`) when it
 * is malformed. Pure: reading the file is the caller's (app/lock-file.ts).
 */
export function parseLock(text: string, path: string): LockFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`malformed lock file ${path}: not JSON (${(err as Error).message}); fix it or run \`switchboard lock\``);
  }
  const problem = lockProblem(data);
  if (problem) throw new Error(`malformed lock file ${path}: ${problem}; fix it or run \`switchboard lock\``);
  return data as LockFile;
}

/** The text of a lock file: pretty JSON with a trailing newline, sorted (diffs stay small). */
export function renderLock(lock: LockFile): string {
  return `${JSON.stringify(sortedLock(lock), null, 2)}\n`;
}

/**
 * Why a tool is held: its definition differs from its pin (`changed`); it has no pin and newTools
 * is hold (`new`); or its pin comes from a lock written before `execution` and `_meta.ui` were
 * pinned, and it has them (`unpinned`): what the lock saw of them is unknown, so they cannot be
 * vouched for until `switchboard lock` pins them.
 */
export type HeldReason = 'changed' | 'new' | 'unpinned';

export interface PinVerdict {
  allowed: JsonObject[];
  held: { name: string; reason: HeldReason; expected?: string; actual: string }[];
}

/**
 * Splits a server's tools by the lock: unchanged → allowed; changed → held; new (not in the lock
 * for this server) → allowed or held per newTools. A server absent from the lock: all its tools
 * are new. No lock: everything allowed. A pin written before `execution` and `_meta` were pinned
 * still matches a tool that has neither; one that has them is held (`unpinned`), never trusted
 * on the old pin (the field may have changed since: the very rug pull pinning is for).
 */
export function checkPins(server: string, tools: JsonObject[], lock: LockFile | undefined, newTools: 'allow' | 'hold'): PinVerdict {
  if (!lock) return { allowed: [...tools], held: [] };
  const pinned = hasOwn(lock.servers, server) ? lock.servers[server]!.tools : undefined;
  const verdict: PinVerdict = { allowed: [], held: [] };
  for (const tool of tools) {
    // A tool without a name cannot be listed or called anyway; the catalog drops it.
    if (typeof tool?.name !== 'string') {
      verdict.allowed.push(tool);
      continue;
    }
    const actual = toolDigest(tool);
    // hasOwn: a tool named "toString" or "__proto__" must not find Object.prototype's members.
    const expected = pinned && hasOwn(pinned, tool.name) ? pinned[tool.name] : undefined;
    if (expected === undefined) {
      if (newTools === 'allow') verdict.allowed.push(tool);
      else verdict.held.push({ name: tool.name, reason: 'new', actual });
    } else if (expected === actual) verdict.allowed.push(tool);
    else verdict.held.push({ name: tool.name, reason: legacyDigest(tool) === expected ? 'unpinned' : 'changed', expected, actual });
  }
  return verdict;
}

/** Adds `server`'s skill pins (its skill entries as it sent them) to a lock. The first entry of a URI wins. */
export function pinSkills(lock: LockFile, server: string, entries: readonly JsonObject[]): void {
  if (!hasOwn(lock.servers, server)) setOwn(lock.servers, server, { tools: {} });
  const skills: Record<string, string> = {};
  for (const e of entries) if (typeof e.uri === 'string' && !hasOwn(skills, e.uri)) setOwn(skills, e.uri, skillDigest(e));
  lock.servers[server]!.skills = skills;
}

/**
 * Why a skill entry is held back by the lock, or undefined when it may be shown. As for tools:
 * no lock, nothing held; a digest that differs from its pin, `changed`; no pin (a server or a lock
 * without skills counts as none), `new` under newTools: hold.
 */
export function skillHeld(server: string, entry: JsonObject, lock: LockFile | undefined, newTools: 'allow' | 'hold'): HeldReason | undefined {
  if (!lock || typeof entry.uri !== 'string') return undefined;
  const pins = hasOwn(lock.servers, server) ? lock.servers[server]!.skills : undefined;
  const expected = pins && hasOwn(pins, entry.uri) ? pins[entry.uri] : undefined;
  if (expected === undefined) return newTools === 'hold' ? 'new' : undefined;
  return expected === skillDigest(entry) ? undefined : 'changed';
}
