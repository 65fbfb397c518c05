// skills/list and skills/get (SEP-2640): unlike the other lists, skills are not held in the
// catalog snapshot; each skills/list asks every ready server that declared the extension (all its
// pages, bounded), merges the answers (catalog/skills.ts), and pages the merged list itself.
// A skill is visible where its URI is readable: the profile's `resources` rules judge the exposed
// URI and the server's `resources` rules its own, exactly as for resources/read, so a denied
// skill can neither be listed, got, nor read.

import { RpcError } from '../../errors.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { JsonObject } from '../../protocol/json.js';
import { uriPrefixFor } from '../../catalog/resource-uris.js';
import { type ExposedSkill, SKILLS_EXTENSION, type ServerSkills, isSkillEntry, mergeSkills, skillNaming } from '../../catalog/skills.js';
import type { Connection } from '../../router/session.js';
import type { Handler, RequestContext } from '../context.js';
import { connectionFor, forwardOn, resourceTargets } from './forward.js';
import { unwrap } from '../../jsonrpc/answer.js';
import { skillHeld } from '../../catalog/pinning.js';

/** Pages read from one server per skills/list: a server that keeps handing out cursors is cut off. */
const MAX_SERVER_PAGES = 20;

function uriAllowed(context: RequestContext) {
  const catalog = context.gateway.catalog;
  return (server: string, exposedUri: string, originalUri: string): boolean =>
    context.view.seesServer(server) !== false && context.view.allowsUri(exposedUri) && (catalog.resourcePolicy.get(server)?.(originalUri) ?? false);
}

async function skillsOf(context: RequestContext, connection: Connection): Promise<ServerSkills> {
  const name = connection.config.name;
  const skills: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SERVER_PAGES; page++) {
    const result = unwrap(await forwardOn(connection, context, 'skills/list', cursor === undefined ? {} : { cursor }));
    if (Array.isArray(result.skills)) skills.push(...result.skills);
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '') break;
    cursor = result.nextCursor;
  }
  return { server: name, prefix: connection.config.prefix, uriPrefix: uriPrefixFor(connection.config.prefix || name), skills: skills.filter((s) => !held(context, name, s)) };
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
  const servers = context.connections.declaring(SKILLS_EXTENSION).filter((c) => context.view.seesServer(c.config.name) !== false);
  const answers = await Promise.all(
    servers.map((c) =>
      skillsOf(context, c).catch((err: unknown) => {
        gateway.logger.warn({ server: c.config.name, err: err instanceof Error ? err.message : String(err) }, 'skills/list failed; its skills are left out');
        return undefined;
      }),
    ),
  );
  const merged = mergeSkills(
    answers.filter((a) => a !== undefined),
    skillNaming(gateway.config.naming, gateway.config.servers),
    gateway.config.sanitize,
    uriAllowed(context),
  );
  for (const s of merged) for (const f of s.findings) gateway.audit.record({ server: s.server, kind: 'skill', item: s.original, field: f.field, change: f.change, why: f.why });
  return merged;
}

/**
 * Refuses a resources/read of a SKILL.md (the server's `uri`) the lock holds back: with pins for
 * the server's skills, its current entry is asked for (skills/get) and judged as skills/list would.
 * Other files of a held skill stay readable: a host checks them against the entry it loaded.
 */
export async function refuseHeldSkillRead(context: RequestContext, connection: Connection, uri: string): Promise<void> {
  const pins = context.gateway.catalog.pins;
  if (pins?.lock === undefined) return;
  const server = connection.config.name;
  const answer = await forwardOn(connection, context, 'skills/get', { uri }).then(unwrap, () => undefined);
  // A server that does not answer for it: not a skill it serves, an ordinary resource.
  if (answer === undefined || !isSkillEntry(answer.skill)) return;
  if (held(context, server, answer.skill)) throw new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri: String(uri) });
}

function decodeCursor(cursor: unknown): number {
  const n = typeof cursor === 'string' && /^s[0-9]{1,9}$/.test(cursor) ? Number(cursor.slice(1)) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  return n;
}

export const listSkills: Handler = async (params, context) => {
  const start = params?.cursor === undefined ? 0 : decodeCursor(params.cursor);
  const all = await mergedSkills(context);
  const end = Math.min(all.length, start + context.gateway.config.catalog.pageSize);
  const result: JsonObject = { skills: all.slice(start, end).map((s) => s.entry) };
  if (end < all.length) result.nextCursor = `s${end}`;
  return result;
};

/** skills/get: the exposed URI routed like a resources/read, the answer's entry exposed like a listed one. */
export const getSkill: Handler = async (params, context) => {
  const uri = params?.uri;
  const targets = resourceTargets(context, uri).filter((t) => context.connections.declaring(SKILLS_EXTENSION).some((c) => c.config.name === t.server));
  const t = targets[0];
  if (t === undefined) throw new RpcError(ErrorCode.ResourceNotFound, 'Skill not found', { uri: String(uri) });
  const connection = await connectionFor(context, t.server);
  const result = unwrap(await forwardOn(connection, context, 'skills/get', { ...params, uri: t.uri }));
  if (!isSkillEntry(result.skill)) throw new RpcError(ErrorCode.InternalError, `server "${t.server}" answered skills/get with no valid skill entry`);
  if (held(context, t.server, result.skill)) throw new RpcError(ErrorCode.ResourceNotFound, 'Skill not found', { uri: String(uri) });
  const { gateway } = context;
  const [exposed] = mergeSkills(
    [{ server: t.server, prefix: connection.config.prefix, uriPrefix: uriPrefixFor(connection.config.prefix || t.server), skills: [result.skill] }],
    skillNaming(gateway.config.naming, gateway.config.servers),
    gateway.config.sanitize,
    uriAllowed(context),
  );
  if (exposed === undefined) throw new RpcError(ErrorCode.ResourceNotFound, 'Skill not found', { uri: String(uri) });
  for (const f of exposed.findings) gateway.audit.record({ server: t.server, kind: 'skill', item: exposed.original, field: f.field, change: f.change, why: f.why });
  return { ...result, skill: exposed.entry };
};
