// Skills (SEP-2640, `io.modelcontextprotocol/skills`) through the gateway: how one server's skill
// entry is shown to clients. A skill's identity is (server, uri), so every skill URI and every
// file URI in its `resources` manifest is namespaced `<uri prefix>+skill://…` always (not only
// on a clash, as other resource URIs are): the gateway routes reads of it back by that prefix.
// Its name follows the tools' naming rules (prefixes, conflicts); frontmatter `name` and
// `description` are sanitized like a tool's description. Pure.

import { type JsonObject, isJsonObject, valueAt } from '../protocol/json.js';
import { assignNames, type NamingOptions } from './naming.js';
import { namespaceUri, serverUriPrefix } from './resource-uris.js';
import { canonicalUri } from '../policy/uri.js';
import { type Finding, type SanitizeOptions, sanitizeText } from './sanitize.js';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** One server's skill entries as it sent them, and what the gateway knows of that server. */
export interface ServerSkills {
  server: string;
  /** The server's name prefix (`""`: none). */
  prefix: string;
  /** Its URI prefix (resource-uris.ts uriPrefixFor). */
  uriPrefix: string;
  skills: readonly unknown[];
}

/** One server's skills as it sent them, with the prefixes its names and URIs get. */
export function serverSkills(server: { readonly name: string; readonly prefix: string }, skills: readonly unknown[]): ServerSkills {
  return { server: server.name, prefix: server.prefix, uriPrefix: serverUriPrefix(server), skills };
}

/** Pages read from one server per skills/list: a server that keeps handing out cursors is cut off. */
export const MAX_SKILL_PAGES = 20;

/**
 * Every entry of one server's skills/list, its cursors followed up to MAX_SKILL_PAGES pages;
 * `truncated` when the server still had more. `ask` sends one skills/list with these params.
 */
export async function collectSkillPages(ask: (params: JsonObject) => Promise<JsonObject>): Promise<{ skills: unknown[]; truncated: boolean }> {
  const skills: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await ask(cursor === undefined ? {} : { cursor });
    if (Array.isArray(result.skills)) skills.push(...result.skills);
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return { skills, truncated: false };
    if (page >= MAX_SKILL_PAGES) return { skills, truncated: true };
    cursor = result.nextCursor;
  }
}

export interface ExposedSkill {
  server: string;
  /** The skill's URI as its server wrote it. */
  original: string;
  entry: JsonObject;
  findings: Finding[];
}

/** Whether a server declared the Skills extension. */
export function declaresSkills(serverCapabilities: JsonObject | undefined): boolean {
  return valueAt(serverCapabilities, 'extensions', SKILLS_EXTENSION) !== undefined;
}

/**
 * Whether a read of `uri` (the server's own) is of a skill's SKILL.md on a server that declared
 * the extension: the file a host loads into the model's context as instructions.
 */
export function isSkillFile(uri: string, serverCapabilities: JsonObject | undefined): boolean {
  return /\/SKILL\.md$/.test(uri) && declaresSkills(serverCapabilities);
}

/** How many enclosing folders of a file are looked at for the skill it belongs to. */
const MAX_SKILL_DEPTH = 8;

/**
 * The SKILL.md URIs whose skill a file at `uri` may be part of, innermost first: its own folder's,
 * then each enclosing folder's (SEP-2640: a skill's files live under the folder of its SKILL.md,
 * and skills nest). A SKILL.md is its own skill's first candidate. Judged on the canonical URI
 * (policy/uri.ts: dot segments removed, escapes decoded) — the file a server will read, so
 * `skill://free/../held/x` belongs to `held`. `undefined` for a URI that cannot be canonicalized
 * (no one can tell whose file it is); empty for one with no `scheme://` path. At most
 * MAX_SKILL_DEPTH candidates.
 */
export function enclosingSkillFiles(uri: string): string[] | undefined {
  const canonical = canonicalUri(uri);
  if (!canonical.ok) return undefined;
  const at = canonical.uri.indexOf('://');
  if (at <= 0) return [];
  const head = canonical.uri.slice(0, at + 3);
  const segments = canonical.uri
    .slice(at + 3)
    .split(/[?#]/, 1)[0]!
    .split('/');
  const out: string[] = [];
  for (let k = segments.length - 1; k >= 1 && out.length < MAX_SKILL_DEPTH; k--) {
    const folder = segments.slice(0, k);
    if (folder.some((s) => s === '')) continue;
    out.push(`${head}${folder.join('/')}/SKILL.md`);
  }
  return out;
}

/** SEP-2640's per-skill limits: every conforming host loads a skill up to these; a server SHOULD NOT serve more. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/**
 * Why a skill entry is past SEP-2640's limits (its `resources` entries, SKILL.md included, or the
 * sum of their `size`), or undefined. A `"dynamic"` manifest offers nothing to count. The gateway
 * passes such a skill on (a host MAY load larger ones) and says so: hosts are not bound to load it.
 */
export function skillOverLimits(entry: JsonObject): string | undefined {
  if (!Array.isArray(entry.resources)) return undefined;
  const files = entry.resources.length;
  let bytes = 0;
  for (const r of entry.resources) if (isJsonObject(r) && typeof r.size === 'number' && r.size > 0) bytes += r.size;
  const over: string[] = [];
  if (files > SKILL_LIMITS.files) over.push(`${files} files (the limit is ${SKILL_LIMITS.files})`);
  if (bytes > SKILL_LIMITS.bytes) over.push(`${bytes} bytes (the limit is ${SKILL_LIMITS.bytes})`);
  return over.length === 0 ? undefined : over.join(', ');
}

/** Whether an entry is one the SEP lets a host load: a uri, a frontmatter with a name, resources an array or "dynamic". */
export function isSkillEntry(raw: unknown): raw is JsonObject & { uri: string; frontmatter: JsonObject } {
  if (!isJsonObject(raw) || typeof raw.uri !== 'string' || !isJsonObject(raw.frontmatter)) return false;
  if (typeof raw.frontmatter.name !== 'string') return false;
  return raw.resources === 'dynamic' || Array.isArray(raw.resources);
}

/** A server's entry with every URI in its namespace and its text cleaned; the name is set by the caller. */
export function exposeSkill(server: string, uriPrefix: string, raw: JsonObject & { uri: string; frontmatter: JsonObject }, sanitize: SanitizeOptions): ExposedSkill {
  const findings: Finding[] = [];
  const frontmatter: JsonObject = { ...raw.frontmatter };
  for (const field of ['name', 'description'] as const) {
    const value = frontmatter[field];
    if (typeof value !== 'string') continue;
    const r = sanitizeText(value, sanitize, `frontmatter.${field}`);
    frontmatter[field] = r.text;
    findings.push(...r.findings);
  }
  const resources = Array.isArray(raw.resources) ? raw.resources.map((r) => (isJsonObject(r) && typeof r.uri === 'string' ? { ...r, uri: namespaceUri(uriPrefix, r.uri) } : r)) : raw.resources;
  const entry: JsonObject = { ...raw, uri: namespaceUri(uriPrefix, raw.uri), frontmatter, resources };
  return { server, original: raw.uri, entry, findings };
}

/**
 * The naming options of skills: the config's mode and separator, and every enabled server's prefix
 * as its namespace, so a skill called `gh__x` on another server cannot pass for gh's (naming.ts).
 */
export function skillNaming(naming: { separator: string; mode: NamingOptions['mode'] }, servers: readonly { name: string; prefix: string; enabled: boolean }[]): NamingOptions {
  return { separator: naming.separator, mode: naming.mode, namespaces: new Map(servers.filter((s) => s.enabled).map((s) => [s.name, s.prefix])) };
}

/**
 * Every server's skills merged into one list, in server order. Names follow the tools' rules
 * (prefixes, clashes); the exposed name goes to `_meta["io.modelcontextprotocol/skills"].name`,
 * never over `frontmatter.name`: a host compares the frontmatter with the SKILL.md it reads, and a
 * rewritten one would fail that check. A skill whose name is withheld (it reached into another
 * server's namespace) is left out, as such a tool is.
 */
export function mergeSkills(
  servers: readonly ServerSkills[],
  naming: NamingOptions,
  sanitize: SanitizeOptions,
  allow: (server: string, exposedUri: string, originalUri: string) => boolean,
): ExposedSkill[] {
  const exposed: ExposedSkill[] = [];
  const requests: { server: string; prefix: string; name: string }[] = [];
  for (const s of servers) {
    for (const raw of s.skills) {
      if (!isSkillEntry(raw)) continue;
      const e = exposeSkill(s.server, s.uriPrefix, raw, sanitize);
      if (!allow(s.server, e.entry.uri as string, e.original)) continue;
      exposed.push(e);
      requests.push({ server: s.server, prefix: s.prefix, name: raw.frontmatter.name as string });
    }
  }
  const names = assignNames(requests, naming);
  const out: ExposedSkill[] = [];
  exposed.forEach((e, i) => {
    const name = names[i];
    if (name === undefined) return;
    const meta = isJsonObject(e.entry._meta) ? e.entry._meta : {};
    e.entry = { ...e.entry, _meta: { ...meta, [SKILLS_EXTENSION]: { name, server: e.server } } };
    out.push(e);
  });
  return out;
}
