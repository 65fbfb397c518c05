// `switchboard registry search TEXT` and `switchboard add NAME[@VERSION]`: find servers in an MCP
// Registry and append a pinned entry for one to the config file. Everything the registry or the
// bundle download can get wrong fails before the file is touched; the file is then replaced in
// one rename, so it is either as it was, byte for byte, or has the new entry.

import { writeFileAtomic } from '../atomic-file.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { AddServerError, addServer, checkServerName, hasServer, registryUrlIn } from '../config/add-server.js';
import { installMcpb, McpbError, previewMcpb } from './mcpb.js';
import { DEFAULT_REGISTRY_URL, RegistryClient, RegistryError, type ServerResponse } from './registry-client.js';
import { EntryError, localName, planEntry, type PlannedEntry } from './registry-entry.js';
import { ZipError } from './zip.js';

/** `--all` follows at most this many pages: a search that matches more wants narrower words. */
const MAX_PAGES = 20;

export interface RegistryIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** --registry, else the config's registry.url, else the official registry. */
export function registryUrl(flag: string | undefined, configText: string | undefined): string {
  return flag ?? (configText !== undefined ? registryUrlIn(configText) : undefined) ?? DEFAULT_REGISTRY_URL;
}

export function readConfigText(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

export async function registrySearch(options: { text: string; url: string; cursor?: string; all: boolean; json: boolean }, io: RegistryIo): Promise<number> {
  try {
    const client = new RegistryClient(options.url);
    const found: ServerResponse[] = [];
    let cursor = options.cursor;
    for (let page = 0; page < (options.all ? MAX_PAGES : 1); page++) {
      const result = await client.search(options.text, cursor);
      found.push(...result.servers);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    if (options.json) {
      io.out(`${JSON.stringify({ servers: found.map((s) => s.server), ...(cursor ? { nextCursor: cursor } : {}) }, null, 2)}\n`);
    } else {
      if (found.length === 0) io.err(`no server in ${options.url} has "${options.text}" in its name\n`);
      for (const { server } of found) io.out(`${server.name}@${server.version}  ${oneLine(server.description ?? '')}\n`);
      if (cursor) io.err(`more results: switchboard registry search ${JSON.stringify(options.text)} --cursor ${cursor} (or --all)\n`);
    }
    return 0;
  } catch (err) {
    return failure(err, io);
  }
}

export interface AddOptions {
  spec: string;
  url: string;
  configFile: string;
  dryRun: boolean;
  update: boolean;
  /** The entry's name in the config (--name); else one made from the registry name. */
  name?: string;
}

export async function registryAdd(options: AddOptions, io: RegistryIo): Promise<number> {
  const at = options.spec.lastIndexOf('@');
  const name = at > 0 ? options.spec.slice(0, at) : options.spec;
  const version = at > 0 ? options.spec.slice(at + 1) : 'latest';
  try {
    const before = readConfigText(options.configFile);
    const text = before ?? '';
    // Checked before the registry is asked: a name already there is an error without --update.
    if (options.name !== undefined) checkServerName(options.name);
    const local = options.name ?? localName(name);
    const named = options.name !== undefined ? ` --name ${local}` : '';
    if (!options.update && hasServer(text, local))
      throw new AddServerError(
        `a server named "${local}" is already in ${options.configFile} (switchboard add --update ${name}${named} moves it to the new version; --name gives the new one another name)`,
      );
    if (options.update && !hasServer(text, local))
      throw new AddServerError(`no server named "${local}" in ${options.configFile} to update (add it without --update${options.name === undefined ? ', or name the entry with --name' : ''})`);

    const { server } = await new RegistryClient(options.url).server(name, version);
    const plan = planEntry(server, local);
    if (plan.mcpb) await fillMcpb(plan, options.dryRun, io);
    const addition = { entry: plan.entry as PlannedEntry['entry'] & { name: string }, notes: plan.notes, comment: `from the MCP Registry: ${plan.source}` };
    const after = addServer(text, addition, { update: options.update });
    for (const w of plan.warnings) io.err(`switchboard: warning: ${w}\n`);

    const needed = [...new Set([...JSON.stringify(plan.entry).matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!))];
    if (options.dryRun) {
      // The entry alone, as it would be written (the splice into the file was made above, and checked).
      io.out(addServer('', addition, { update: false }));
      io.err(`dry run: ${options.configFile} not changed\n`);
    } else {
      await writeAtomically(options.configFile, after);
      io.err(`${options.update ? 'updated' : 'added'} server "${local}" (${plan.source}) in ${options.configFile}\n`);
    }
    if (needed.length > 0) io.err(`it needs these environment variables set: ${needed.join(', ')} (switchboard check says which are unset)\n`);
    return 0;
  } catch (err) {
    return failure(err, io);
  }
}

/** An mcpb entry's command comes from the bundle's manifest; a dry run verifies it in memory only. */
async function fillMcpb(plan: PlannedEntry, dryRun: boolean, io: RegistryIo): Promise<void> {
  const { url, sha256 } = plan.mcpb!;
  const run = dryRun ? await previewMcpb(url, sha256) : await installMcpb(url, sha256);
  const packageArgs = (plan.entry.args as string[] | undefined) ?? [];
  const env = { ...run.env, ...((plan.entry.env as Record<string, string> | undefined) ?? {}) };
  const { name } = plan.entry;
  // Keys in the order the other kinds write them; the bundle folder is the working folder.
  const entry: Record<string, unknown> = { name, command: run.command, args: [...run.args, ...packageArgs], cwd: run.dir };
  if (Object.keys(env).length > 0) entry.env = env;
  plan.entry = entry;
  Object.assign(plan.notes.vars, run.notes);
  io.err(dryRun ? `dry run: verified the bundle's SHA-256; it would be unpacked into ${run.dir}\n` : `verified the bundle's SHA-256 and unpacked it into ${run.dir}\n`);
}

/** Replaces the file in one rename (same folder, same mode), so a failure leaves it as it was. */
function writeAtomically(file: string, text: string): Promise<void> {
  return writeFileAtomic(file, text, { mode: existsSync(file) ? statSync(file).mode & 0o777 : 0o644 });
}

function failure(err: unknown, io: RegistryIo): number {
  if (err instanceof RegistryError || err instanceof EntryError || err instanceof AddServerError || err instanceof McpbError || err instanceof ZipError) {
    io.err(`switchboard: ${err.message}\n`);
    return 1;
  }
  throw err;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
