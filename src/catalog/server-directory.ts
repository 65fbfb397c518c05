// What each server is for, and the server directory one view shows a model in search mode: one
// line per server the view has a model-visible tool of, in config order, with the count of those
// tools (search/directory.ts words the lines). Pure; a view computes its directory once.

import { directoryLines, directoryText, type DirectoryLine } from '../search/directory.js';
import type { CatalogEntry, CatalogList, CatalogServerInput } from './build.js';
import { guardInstructions, guardServerInfo, type GuardOptions, type GuardReport } from './guard.js';
import { hiddenFromModel } from './tool-exposure.js';

/** What is known of what a server is for: the operator's line, then what the server says (cleaned). */
export interface ServerAbout {
  description?: string;
  title?: string;
  serverDescription?: string;
  instructions?: string;
}

export interface ServerDirectory {
  lines: readonly DirectoryLine[];
  /** The lines as the model reads them: `- name (N tools): purpose`. */
  text: string;
  /** The servers listed: what search_tools' `server` accepts. */
  servers: ReadonlySet<string>;
}

/**
 * Every server's instructions and self-description, through the guard. Only ready servers'
 * instructions are the gateway's own (merged into initialize) and only their findings reported;
 * a server in its downtime grace keeps its directory line as it was.
 */
export function aboutServers(servers: readonly CatalogServerInput[], guard: GuardOptions, report: GuardReport): { instructions: Map<string, string>; about: Map<string, ServerAbout> } {
  const instructions = new Map<string, string>();
  const about = new Map<string, ServerAbout>();
  for (const s of servers) {
    const name = s.config.name;
    const told = guardInstructions(name, s.instructions, guard);
    const info = guardServerInfo(name, s.serverInfo, guard);
    if (s.ready) {
      for (const r of [told.report, info.report]) {
        report.findings.push(...r.findings);
        report.blocked.push(...r.blocked);
      }
      if (told.text !== undefined) instructions.set(name, told.text);
    }
    const description = s.description ?? s.config.description;
    about.set(name, { description, title: info.title, serverDescription: info.description, instructions: told.text });
  }
  return { instructions, about };
}

type DirectoryTool = { name: string; title?: string };

/**
 * A server's tools as the directory reads them, the same array while its entries are the same
 * objects (the catalog keeps an unchanged item's entry): directory.ts reads a server's tool words
 * once per array, so a new snapshot costs the servers that changed (10,000 tools: ~45 ms to read).
 */
const toolsOf = new WeakMap<CatalogEntry, { entries: CatalogEntry[]; tools: DirectoryTool[] }>();

function directoryTools(entries: CatalogEntry[]): DirectoryTool[] {
  const hit = toolsOf.get(entries[0]!);
  if (hit && hit.entries.length === entries.length && hit.entries.every((e, i) => e === entries[i])) return hit.tools;
  const tools = entries.map((e) => ({ name: e.original, title: typeof e.item.title === 'string' ? e.item.title : undefined }));
  toolsOf.set(entries[0]!, { entries, tools });
  return tools;
}

/** Whether two snapshots say the same of every server (what its directory line is made from). */
export function sameAbout(a: ReadonlyMap<string, ServerAbout>, b: ReadonlyMap<string, ServerAbout>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, x] of a) {
    const y = b.get(name);
    if (!y || x.description !== y.description || x.title !== y.title || x.serverDescription !== y.serverDescription || x.instructions !== y.instructions) return false;
  }
  return true;
}

/** The directory of a view's tools: servers with a tool the model can find, in catalog order. */
export function serverDirectory(about: ReadonlyMap<string, ServerAbout>, tools: CatalogList): ServerDirectory {
  const byServer = new Map<string, CatalogEntry[]>();
  for (const e of tools.entries) {
    // A tool for an app's UI alone is never offered by search: it is not what a server is for.
    if (hiddenFromModel(e.item)) continue;
    let list = byServer.get(e.server);
    if (!list) byServer.set(e.server, (list = []));
    list.push(e);
  }
  const lines = directoryLines([...byServer].map(([name, entries]) => ({ name, ...about.get(name), tools: directoryTools(entries) })));
  return { lines, text: directoryText(lines), servers: new Set(byServer.keys()) };
}
