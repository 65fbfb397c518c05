// Skills (SEP-2640, `io.modelcontextprotocol/skills`) through the gateway: how one server's skill
// entry is shown to clients. A skill's identity is (server, uri), so every skill URI and every
// file URI in its `resources` manifest is namespaced `<uri prefix>+skill://…` always (not only
// on a clash, as other resource URIs are): the gateway routes reads of it back by that prefix.
// Its name follows the tools' naming rules (prefixes, conflicts); frontmatter `name` and
// `description` are sanitized like a tool's description. Pure.

import { type JsonObject, isJsonObject, valueAt } from '../protocol/json.js';
import { assignNames, type NamingOptions } from './naming.js';
import { namespaceUri } from './resource-uris.js';
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

export interface ExposedSkill {
  server: string;
  /** The skill's URI as its server wrote it. */
  original: string;
  entry: JsonObject;
  findings: Finding[];
}

/**
 * Whether a read of `uri` (the server's own) is of a skill's SKILL.md on a server that declared
 * the extension: the file a host loads into the model's context as instructions.
 */
export function isSkillFile(uri: string, serverCapabilities: JsonObject | undefined): boolean {
  return /\/SKILL\.md$/.test(uri) && valueAt(serverCapabilities, 'extensions', SKILLS_EXTENSION) !== undefined;
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
