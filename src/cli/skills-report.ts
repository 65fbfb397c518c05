// What `switchboard check` shows of skills (SEP-2640): every skill the servers that declare the
// extension list, by the name and URI clients would see (the same merge skills/list does, the
// --client profile's resource rules applied), whether the lock file holds it back, and whether it
// is past SEP-2640's per-skill limits.

import type { App } from '../app/app.js';
import { skillHeld } from '../catalog/pinning.js';
import { SKILLS_EXTENSION, isSkillEntry, mergeSkills, serverSkills, skillNaming, skillOverLimits, type ServerSkills } from '../catalog/skills.js';
import { viewFor } from '../catalog/view.js';
import type { ClientProfile } from '../config/types.js';
import { valueAt } from '../protocol/json.js';
import { skillEntries } from './lock.js';

export interface SkillRow {
  /** The exposed name (the tools' naming rules). */
  name: string;
  server: string;
  /** The URI clients see, and the server's own. */
  uri: string;
  original: string;
  /** Why the lock file holds it back (clients do not see it), when it does. */
  held?: string;
  /** How it is past SEP-2640's per-skill limits (512 files, 16 MiB), when it is: hosts need not load it. */
  over?: string;
}

/** The skills rows, and a problem per server whose skills/list failed. */
export async function skillsReport(app: App, profile: ClientProfile | undefined): Promise<{ skills: SkillRow[]; problems: { server: string; problem: string }[] }> {
  const catalog = app.catalog;
  const view = viewFor(catalog, profile);
  const problems: { server: string; problem: string }[] = [];
  const servers: ServerSkills[] = [];
  for (const c of app.router.connections()) {
    if (c.state !== 'ready' || valueAt(c.capabilities, 'extensions', SKILLS_EXTENSION) === undefined) continue;
    try {
      const skills = await skillEntries(c);
      servers.push(serverSkills(c.config, skills));
    } catch (err) {
      problems.push({ server: c.name, problem: `skills/list failed: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  const held = new Map<string, string>();
  for (const s of servers) {
    for (const raw of s.skills) {
      const reason = isSkillEntry(raw) ? skillHeld(s.server, raw, catalog.pins?.lock, catalog.pins?.newTools ?? 'allow') : undefined;
      if (reason !== undefined && isSkillEntry(raw)) held.set(`${s.server}\n${raw.uri}`, reason);
    }
  }
  const merged = mergeSkills(
    servers,
    skillNaming(app.config.naming, app.config.servers),
    app.config.sanitize,
    (server, exposed, original) => view.allowsUri(exposed) && (catalog.resourcePolicy.get(server)?.(original) ?? false),
  );
  const skills = merged.map((s) => {
    const row: SkillRow = { name: String((s.entry._meta as Record<string, { name: string }>)[SKILLS_EXTENSION]!.name), server: s.server, uri: String(s.entry.uri), original: s.original };
    const reason = held.get(`${s.server}\n${s.original}`);
    if (reason !== undefined) row.held = reason;
    const over = skillOverLimits(s.entry);
    if (over !== undefined) row.over = over;
    return row;
  });
  return { skills, problems };
}
