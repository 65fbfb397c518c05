// skills/list and skills/get (SEP-2640): unlike the other lists, skills are not held in the
// catalog snapshot (SEP-2640 defines no change notification for them, so a held copy would go
// stale unseen); each skills/list asks every ready server that declared the extension (all its
// pages, bounded), merges the answers (catalog/skills.ts), and pages the merged list with the
// gateway's signed cursors. A skill the lock file holds back is held with all its files.
// A skill is visible where its URI is readable: the profile's `resources` rules judge the exposed
// URI and the server's `resources` rules its own, exactly as for resources/read, so a denied
// skill can neither be listed, got, nor read.

import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { JsonObject } from '../../protocol/json.js';
import {
  type ExposedSkill,
  MAX_SKILL_PAGES,
  SKILLS_EXTENSION,
  type ServerSkills,
  collectSkillPages,
  declaresSkills,
  enclosingSkillFiles,
  isSkillEntry,
  mergeSkills,
  serverSkills,
  skillNaming,
  skillOverLimits,
} from '../../catalog/skills.js';
import type { Connection } from '../../router/session.js';
import type { Handler, RequestContext } from '../context.js';
import { connectionFor, forwardOn, resourceTargets } from './forward.js';
import { unwrap } from '../../jsonrpc/answer.js';
import { skillHeld } from '../../catalog/pinning.js';
import { canonicalUri } from '../../policy/uri.js';
import { type CursorState, indexKeys, pageBounds } from '../../catalog/cursor.js';

function uriAllowed(context: RequestContext) {
  const catalog = context.gateway.catalog;
  return (server: string, exposedUri: string, originalUri: string): boolean => context.view.allowsUri(exposedUri) && (catalog.resourcePolicy.get(server)?.(originalUri) ?? false);
}

async function skillsOf(context: RequestContext, connection: Connection): Promise<ServerSkills> {
  const name = connection.config.name;
  const { skills, truncated } = await collectSkillPages(async (params) => unwrap(await forwardOn(connection, context, 'skills/list', params)));
  if (truncated) {
    // Said, not silent: an operator whose server pages small must hear that skills are missing.
    context.gateway.logger.warn({ server: name, pages: MAX_SKILL_PAGES, skills: skills.length }, 'skills/list: the server had more pages than the gateway reads; the rest of its skills are left out');
  }
  return serverSkills(
    connection.config,
    skills.filter((s) => !held(context, name, s)),
  );
}

/**
 * Whether the lock holds this skill back (its entry changed since `switchboard lock`, or it is new
 * under newTools: hold), as a changed tool is held: not listed, not got. Logged each time it is met.
 */
function held(context: RequestContext, server: string, raw: unknown): boolean {
  const pins = context.gateway.catalog.pins;
  if (!isSkillEntry(raw) || pins === undefined) return false;
  const reason = skillHeld(server, raw, pins.lock, pins.newTools);
  if (reason === undefined) return false;
  context.gateway.logger.warn({ server, skill: raw.uri, reason }, 'skill held back by the lock file; run `switchboard lock` once you trust it');
  return true;
}

/** Every visible server's skills, merged; a server that fails to answer is left out and logged. */
async function mergedSkills(context: RequestContext): Promise<ExposedSkill[]> {
  const { gateway } = context;
  // Every declaring server: a skill is judged by the resource rules alone (uriAllowed), not by
  // whether the profile sees any tool, prompt or resource of its server (a server need not list
  // its skill files in resources/list).
  const servers = context.connections.declaring(SKILLS_EXTENSION);
  const answers = await Promise.all(
    servers.map((c) =>
      skillsOf(context, c).catch((err: unknown) => {
        gateway.logger.warn({ server: c.config.name, err: err instanceof Error ? err.message : String(err) }, 'skills/list failed; its skills are left out');
        return undefined;
      }),
    ),
  );
  return exposeSkills(
    context,
    answers.filter((a) => a !== undefined),
  );
}

/** Servers' skills as this client sees them (names, URIs, rules, cleaning), each cleaning audited. */
function exposeSkills(context: RequestContext, servers: readonly ServerSkills[]): ExposedSkill[] {
  const { gateway } = context;
  const exposed = mergeSkills(servers, skillNaming(gateway.config.naming, gateway.config.servers), gateway.config.sanitize, uriAllowed(context));
  for (const s of exposed) for (const f of s.findings) gateway.audit.record({ server: s.server, kind: 'skill', item: s.original, field: f.field, change: f.change, why: f.why });
  return exposed;
}

/**
 * Refuses a resources/read of any file of a skill the lock holds back (`uri` is the server's own):
 * its SKILL.md and every other file under its folder, as a changed tool's calls are refused. The
 * skill a file belongs to is the innermost enclosing one the lock pins for this server; under
 * `newTools: hold` with none pinned, the innermost `skill://` folder the server answers skills/get
 * for. Its current entry is asked for (skills/get) and judged as skills/list would: a skill is
 * held by what the server serves now, so each such read costs one skills/get.
 */
export async function refuseHeldSkillRead(context: RequestContext, connection: Connection, uri: string): Promise<void> {
  const pins = context.gateway.catalog.pins;
  if (pins?.lock === undefined || !declaresSkills(connection.capabilities)) return;
  const server = connection.config.name;
  const pinned = Object.hasOwn(pins.lock.servers, server) ? pins.lock.servers[server]!.skills : undefined;
  const candidates = enclosingSkillFiles(uri);
  // A URI no one can tell the skill of is not read past a lock that pins skills.
  if (candidates === undefined) throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri: String(uri) });
  // Pins are keyed by the server's own spelling: compared canonical to canonical, asked by theirs.
  const pinnedByCanonical = new Map<string, string>();
  for (const own of Object.keys(pinned ?? {})) {
    const c = canonicalUri(own);
    if (c.ok) pinnedByCanonical.set(c.uri, own);
  }
  let ask = candidates.flatMap((c) => pinnedByCanonical.get(c) ?? []);
  // Nothing pinned encloses it: only a new skill could hold it back, and only under hold.
  if (ask.length === 0) {
    if (pins.newTools !== 'hold' || !uri.startsWith('skill://')) return;
    ask = candidates;
  }
  for (const skillUri of ask) {
    const answer = await forwardOn(connection, context, 'skills/get', { uri: skillUri }).then(unwrap, () => undefined);
    // A server that does not answer for it: no skill there (any more); the next folder out is tried.
    if (answer === undefined || !isSkillEntry(answer.skill)) continue;
    if (held(context, server, answer.skill)) throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri: String(uri) });
    return;
  }
}

/** Warns once per (server, skill URI) a process meets it past SEP-2640's limits. */
const warnedOverLimits = new Set<string>();

function noteOverLimits(context: RequestContext, skills: readonly ExposedSkill[]): void {
  for (const s of skills) {
    const over = skillOverLimits(s.entry);
    const key = `${s.server}\n${s.original}`;
    if (over === undefined || warnedOverLimits.has(key)) continue;
    if (warnedOverLimits.size < 10_000) warnedOverLimits.add(key);
    context.gateway.logger.warn({ server: s.server, skill: s.original, over }, "skill is past SEP-2640's per-skill limits; hosts need not load it");
  }
}

/**
 * skills/list, paged by the gateway's signed cursors (as tools/list is): keyed by the exposed URI,
 * so a skill added or dropped between pages shifts nothing, and a cursor of another list, another
 * process, or tampered with is -32602.
 */
export const listSkills: Handler = async (params, context) => {
  const { gateway } = context;
  let after: CursorState | undefined;
  if (params?.cursor !== undefined) {
    after = gateway.cursors.decode(params.cursor, 'skills');
    if (after === undefined) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  }
  const all = await mergedSkills(context);
  noteOverLimits(context, all);
  const { start, end, next } = pageBounds(indexKeys(all.map((s) => s.entry.uri as string)), gateway.config.catalog.pageSize, after, 'skills');
  const result: JsonObject = { skills: all.slice(start, end).map((s) => s.entry) };
  if (next) result.nextCursor = gateway.cursors.encode(next);
  return result;
};

/**
 * SEP-2640: a URI that does not identify a skill the server serves is -32602 Invalid params, in
 * every protocol revision (unlike resources/read's -32002 of the 2025 ones). Hidden, denied and
 * held skills get the same answer as absent ones.
 */
const skillNotFound = (uri: unknown) => new RpcError(ErrorCode.InvalidParams, 'Skill not found', { uri: String(uri) });

/** skills/get: the exposed URI routed like a resources/read, the answer's entry exposed like a listed one. */
export const getSkill: Handler = async (params, context) => {
  const uri = params?.uri;
  if (typeof uri !== 'string') throw new RpcError(ErrorCode.InvalidParams, 'params.uri must be a string');
  let targets: ReturnType<typeof resourceTargets> = [];
  try {
    targets = resourceTargets(context, uri).filter((t) => context.connections.declaring(SKILLS_EXTENSION).some((c) => c.config.name === t.server));
  } catch {
    // Unknown, or denied by the rules: not a skill this client can get.
  }
  const t = targets[0];
  if (t === undefined) throw skillNotFound(uri);
  const connection = await connectionFor(context, t.server);
  const result = await forwardOn(connection, context, 'skills/get', { ...params, uri: t.uri })
    .then(unwrap)
    .catch((err: unknown) => {
      // A server of the 2025 revisions may say -32002 as its resources/read does: the client hears the SEP's code.
      throw err instanceof RpcError && err.code === ErrorCode.ResourceNotFound ? skillNotFound(uri) : err;
    });
  if (!isSkillEntry(result.skill)) throw new RpcError(ErrorCode.InternalError, `server "${t.server}" answered skills/get with no valid skill entry`);
  if (held(context, t.server, result.skill)) throw skillNotFound(uri);
  const [exposed] = exposeSkills(context, [serverSkills(connection.config, [result.skill])]);
  if (exposed === undefined) throw skillNotFound(uri);
  return { ...result, skill: exposed.entry };
};
