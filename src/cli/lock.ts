// `switchboard lock`: connect to every server and write the lock file with a digest of each
// tool's definition as the server sends it. A server that cannot be reached keeps the pins it
// had: a flaky server must not silently lose its protection.

import { buildLock, pinSkills, type LockFile } from '../catalog/pinning.js';
import { SKILLS_EXTENSION, collectSkillPages } from '../catalog/skills.js';
import { isJsonObject, valueAt, type JsonObject } from '../protocol/json.js';
import type { App } from '../app/app.js';
import { readLock, writeLock } from '../app/lock-file.js';

export interface LockOutcome {
  file: string;
  servers: { name: string; tools: number; skills?: number; changed: string[]; added: string[]; removed: string[]; kept?: boolean }[];
  failed: string[];
}

export async function writeLockFile(app: App): Promise<LockOutcome> {
  const file = app.config.pinning.lockFile;
  const previous = await readLock(file).catch(() => undefined);
  const connections = app.router.connections().filter((c) => c.state !== 'disabled');
  const ready = connections.filter((c) => c.state === 'ready');
  const lock: LockFile = buildLock(ready.map((c) => ({ name: c.name, tools: c.lists.tools })));
  const failed = connections.filter((c) => c.state !== 'ready').map((c) => c.name);
  // Skills (SEP-2640): each entry's digest, for servers that declare the extension.
  for (const c of ready) {
    if (valueAt(c.capabilities, 'extensions', SKILLS_EXTENSION) === undefined) continue;
    const skills = await skillEntries(c).catch(() => undefined);
    // A skills/list that fails keeps the skill pins the server had, as an unreachable server keeps all of its pins.
    const kept = previous?.servers[c.name]?.skills;
    if (skills !== undefined) pinSkills(lock, c.name, skills);
    else if (kept !== undefined) lock.servers[c.name]!.skills = kept;
  }
  for (const name of failed) if (previous?.servers[name]) lock.servers[name] = previous.servers[name]!;
  await writeLock(file, lock);
  const servers = Object.entries(lock.servers).map(([name, entry]) => {
    const before = previous?.servers[name]?.tools ?? {};
    const now = entry.tools;
    return {
      name,
      tools: Object.keys(now).length,
      ...(entry.skills === undefined ? {} : { skills: Object.keys(entry.skills).length }),
      changed: Object.keys(now).filter((t) => t in before && before[t] !== now[t]),
      added: Object.keys(now).filter((t) => !(t in before)),
      removed: Object.keys(before).filter((t) => !(t in now)),
      ...(failed.includes(name) ? { kept: true } : {}),
    };
  });
  return { file, servers, failed };
}

/** A server connection as the app hands them out (cli does not import the router). */
type Connection = ReturnType<App['router']['connections']>[number];

/** Every skill entry `connection`'s server lists (its pages, as far as the gateway reads them), as it sent them. */
export async function skillEntries(connection: Connection): Promise<JsonObject[]> {
  const { skills } = await collectSkillPages(async (params) => (await connection.request('skills/list', params, { timeoutMs: connection.config.timeoutMs })) as JsonObject);
  return skills.filter(isJsonObject);
}

export function renderLockOutcome(o: LockOutcome): string {
  let out = `wrote ${o.file}\n`;
  for (const s of o.servers) {
    const delta = [s.added.length && `${s.added.length} new`, s.changed.length && `${s.changed.length} changed`, s.removed.length && `${s.removed.length} removed`].filter(Boolean).join(', ');
    out += `  ${s.name}: ${s.tools} tools${s.skills === undefined ? '' : `, ${s.skills} skills`} pinned${s.kept ? ' (unreachable: previous pins kept)' : ''}${delta ? ` — ${delta}` : ''}\n`;
    for (const t of s.changed) out += `    changed: ${t}\n`;
  }
  for (const name of o.failed) if (!o.servers.some((s) => s.name === name)) out += `  ${name}: unreachable and not in the previous lock: nothing pinned\n`;
  return out;
}
