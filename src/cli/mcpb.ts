// An mcpb package from the registry: download its bundle, check the SHA-256 the registry publishes
// (a mismatch is an error and nothing is unpacked or written), unpack it into a cache folder named
// by that digest, and read its manifest.json for the command that runs it (server.mcp_config).
//
// The cache: $SWITCHBOARD_CACHE_DIR, else $XDG_CACHE_HOME/switchboard, else ~/.cache/switchboard;
// bundles go to <cache>/mcpb/<sha256>/. A folder already there is used as it is.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BodyTooLarge, readBody } from './http-body.js';
import { variableName } from './registry-entry.js';
import { readZipEntry, unzipInto } from './zip.js';

export class McpbError extends Error {}

const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 120_000;

export interface McpbCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Descriptions of the user_config values the command refers to, by variable name. */
  notes: Record<string, string>;
  dir: string;
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SWITCHBOARD_CACHE_DIR) return path.resolve(env.SWITCHBOARD_CACHE_DIR);
  return path.join(env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), '.cache'), 'switchboard');
}

/** The bundle, downloaded and checked against the registry's SHA-256 (a mismatch throws). */
async function verifiedBundle(url: string, sha256: string): Promise<Buffer> {
  const bundle = await download(url);
  const actual = createHash('sha256').update(bundle).digest('hex');
  if (actual !== sha256) throw new McpbError(`the bundle at ${url} has SHA-256 ${actual}, the registry says ${sha256}: not installed`);
  return bundle;
}

/**
 * What `add --dry-run` shows: the bundle downloaded and verified in memory, its manifest read from
 * the archive, the command as it would run from the cache folder. Nothing is written.
 */
export async function previewMcpb(url: string, sha256: string, cache = cacheDir()): Promise<McpbCommand> {
  const dir = path.join(cache, 'mcpb', sha256);
  const manifest = await readZipEntry(await verifiedBundle(url, sha256), 'manifest.json');
  if (!manifest) throw new McpbError(`the bundle at ${url} has no manifest.json`);
  return commandFrom(manifest.toString('utf8'), dir);
}

/** Downloads, verifies and unpacks the bundle (or finds it unpacked), and reads how to run it. */
export async function installMcpb(url: string, sha256: string, cache = cacheDir()): Promise<McpbCommand> {
  const dir = path.join(cache, 'mcpb', sha256);
  if (!existsSync(path.join(dir, 'manifest.json'))) {
    const bundle = await verifiedBundle(url, sha256);
    mkdirSync(path.dirname(dir), { recursive: true });
    // Unpacked beside its final place and renamed: a failed unpack leaves no half folder behind.
    const temp = mkdtempSync(path.join(path.dirname(dir), `.${sha256.slice(0, 12)}-`));
    try {
      await unzipInto(bundle, temp);
      if (!existsSync(path.join(temp, 'manifest.json'))) throw new McpbError(`the bundle at ${url} has no manifest.json`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(temp, dir);
    } catch (err) {
      rmSync(temp, { recursive: true, force: true });
      throw err;
    }
  }
  return commandOf(dir);
}

async function download(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    throw new McpbError(
      `cannot download the bundle ${url}: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (((err as Error).cause as Error | undefined)?.message ?? (err as Error).message)}`,
    );
  }
  if (!response.ok) throw new McpbError(`downloading the bundle ${url} failed: HTTP ${response.status}`);
  return readBody(response, MAX_BUNDLE_BYTES).catch((err: unknown) => {
    throw err instanceof BodyTooLarge ? new McpbError(`the bundle ${url} is larger than ${MAX_BUNDLE_BYTES} bytes`) : err;
  });
}

interface Manifest {
  server?: { type?: string; entry_point?: string; mcp_config?: { command?: string; args?: string[]; env?: Record<string, string> } };
  user_config?: Record<string, { description?: string; title?: string; sensitive?: boolean; required?: boolean; default?: unknown }>;
}

/** The manifest's mcp_config with its placeholders filled: ${__dirname} is the unpacked folder. */
export function commandOf(dir: string): McpbCommand {
  return commandFrom(readFileSync(path.join(dir, 'manifest.json'), 'utf8'), dir);
}

function commandFrom(text: string, dir: string): McpbCommand {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch (err) {
    throw new McpbError(`the bundle's manifest.json cannot be read: ${(err as Error).message}`);
  }
  const config = manifest.server?.mcp_config;
  if (!config?.command) throw new McpbError("the bundle's manifest.json has no server.mcp_config.command");
  const notes: Record<string, string> = {};
  const fill = (text: string) =>
    text
      .replaceAll('$${', '\0')
      .replace(/\$\{([^}]*)\}/g, (whole, key: string) => {
        if (key === '__dirname') return dir;
        if (key === '/' || key === 'pathSeparator') return path.sep;
        if (!key.startsWith('user_config.')) return whole;
        const id = key.slice('user_config.'.length);
        const v = variableName(id);
        const spec = manifest.user_config?.[id];
        const description = [spec?.description ?? spec?.title, spec?.sensitive ? '(secret)' : '', spec?.required ? '(required)' : ''].filter(Boolean).join(' ');
        if (description) notes[v] = description;
        return spec?.default !== undefined && !spec.required ? `\${${v}:-${String(spec.default).replaceAll('}', '')}}` : `\${${v}}`;
      })
      .replaceAll('\0', () => '$${');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.env ?? {})) env[k] = fill(v);
  return { command: fill(config.command), args: (config.args ?? []).map(fill), env, notes, dir };
}
