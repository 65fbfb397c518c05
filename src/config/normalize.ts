// Rules across fields and entries (command xor url, unique names and prefixes, Claude Desktop
// `type`/`disabled`), and the mapping of a valid file onto the normalized GatewayConfig.

import { resolve } from 'node:path';
import { parseDuration, parseSize } from './duration.js';
import { didYouMean, formatPath, type Found, type Segment } from './problems.js';
import { filterRules, toPolicyConfig } from './policy.js';
import { MAX_NAME_LENGTH, NAME_PATTERN, PREFIX_PATTERN, type UserConfig } from './schema.js';
import type { GatewayConfig, HttpTransportKind, ServerConfig } from './types.js';

/** One server entry of either shape, with where it sits in the file. */
export interface ServerEntry {
  /** `['servers', 2]` or `['mcpServers', 'github']`. */
  path: Segment[];
  /** Where a problem with the name is reported: the `name` field, or the `mcpServers` key. */
  namePath: Segment[];
  raw: Record<string, unknown>;
  claude: boolean;
  /** The server name, when it can be told (a valid `name`, or a usable `mcpServers` key). */
  name?: string;
  /** Set when the name was derived from an `mcpServers` key that is not a valid name itself. */
  normalizedFrom?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const validName = (s: string) => NAME_PATTERN.test(s) && s.length <= MAX_NAME_LENGTH;

/** The name for an `mcpServers` key: itself if valid, else lowercased with invalid chars → `-`. */
export function nameFromKey(key: string): { name: string; normalized: boolean } | undefined {
  if (validName(key)) return { name: key, normalized: false };
  const name = key.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return validName(name) ? { name, normalized: true } : undefined;
}

/** The server entries of a (possibly invalid) tree: `servers` first, then `mcpServers`. */
export function serverEntries(tree: unknown): ServerEntry[] {
  const entries: ServerEntry[] = [];
  if (!isRecord(tree)) return entries;
  if (Array.isArray(tree.servers)) {
    tree.servers.forEach((raw, i) => {
      if (!isRecord(raw)) return;
      const name = typeof raw.name === 'string' && validName(raw.name) ? raw.name : undefined;
      entries.push({ path: ['servers', i], namePath: ['servers', i, 'name'], raw, claude: false, name });
    });
  }
  if (isRecord(tree.mcpServers)) {
    for (const [key, raw] of Object.entries(tree.mcpServers)) {
      if (!isRecord(raw)) continue;
      const derived = nameFromKey(key);
      entries.push({
        path: ['mcpServers', key],
        namePath: ['mcpServers', key],
        raw,
        claude: true,
        name: derived?.name,
        normalizedFrom: derived?.normalized ? key : undefined,
      });
    }
  }
  return entries;
}

export const isEnabled = (raw: Record<string, unknown>): boolean => raw.enabled !== false && raw.disabled !== true;

const stdioOnly = ['args', 'env', 'cwd', 'inheritEnv'] as const;
const httpOnly = ['transport', 'headers'] as const;
const transports: readonly HttpTransportKind[] = ['auto', 'streamable-http', 'sse'];
const transportOfTypes: Record<string, HttpTransportKind> = { http: 'streamable-http', 'streamable-http': 'streamable-http', sse: 'sse' };
/** The transport a Claude Desktop `type` implies; undefined for stdio and for anything invalid. */
const transportOfType = (type: unknown): HttpTransportKind | undefined =>
  typeof type === 'string' && Object.hasOwn(transportOfTypes, type) ? transportOfTypes[type] : undefined;

/** Problems no single field shows. Tolerates invalid fields: zod reports those. */
export function crossCheck(entries: readonly ServerEntry[]): Found[] {
  const problems: Found[] = [];
  const at = (path: Segment[], message: string) => problems.push({ path, message });

  for (const e of entries) {
    if (e.claude && !e.name) {
      at(e.namePath, `cannot be turned into a server name: use 1 to ${MAX_NAME_LENGTH} lowercase letters, digits and -`);
    }
    const hasCommand = e.raw.command !== undefined;
    const hasUrl = e.raw.url !== undefined;
    if (hasCommand && hasUrl) at(e.path, 'has both command and url: a server is either stdio (command) or HTTP (url)');
    else if (!hasCommand && !hasUrl) {
      // A misspelt `comand:` is reported as an unknown key; saying that command is missing adds nothing.
      const misspelt = Object.keys(e.raw).some((k) => ['command', 'url'].includes(didYouMean(k, ['command', 'url']) ?? ''));
      if (!misspelt) at(e.path, 'needs either command (a stdio server) or url (an HTTP server)');
    } else if (hasCommand) {
      for (const key of httpOnly) if (e.raw[key] !== undefined) at([...e.path, key], 'only applies to HTTP servers (url)');
    } else {
      for (const key of stdioOnly) if (e.raw[key] !== undefined) at([...e.path, key], 'only applies to stdio servers (command)');
    }
    const type = e.raw.type;
    if (typeof type === 'string') {
      if (type === 'stdio' && hasUrl) at([...e.path, 'type'], 'is stdio, but the server has a url');
      const implied = transportOfType(type);
      if (implied && hasCommand) at([...e.path, 'type'], `is ${type}, but the server has a command`);
      if (implied && typeof e.raw.transport === 'string' && e.raw.transport !== implied) {
        at([...e.path, 'transport'], `contradicts type ${type}`);
      }
    }
    if (typeof e.raw.enabled === 'boolean' && e.raw.enabled === e.raw.disabled) {
      at([...e.path, 'disabled'], 'contradicts enabled');
    }
  }

  // Names: exact names claim first; a name derived from an mcpServers key must not collide.
  const owner = new Map<string, ServerEntry>();
  const badName = new Set<ServerEntry>();
  for (const e of entries) {
    if (!e.name || e.normalizedFrom !== undefined) continue;
    const first = owner.get(e.name);
    if (first) {
      at(e.namePath, `duplicate name (also used by ${formatPath(first.path)})`);
      badName.add(e);
    } else owner.set(e.name, e);
  }
  const derived = entries.filter((e) => e.name && e.normalizedFrom !== undefined);
  for (const e of derived) {
    const taken = owner.get(e.name!);
    const twins = derived.filter((d) => d !== e && d.name === e.name);
    if (taken || twins.length) badName.add(e);
    if (taken) at(e.namePath, `would become the name "${e.name}", which ${formatPath(taken.path)} already uses; rename it`);
    else if (twins.length) {
      const others = twins.map((d) => formatPath(d.path)).join(', ');
      at(e.namePath, `would become the name "${e.name}", as would ${others}; rename one`);
    }
  }

  // Prefixes: unique among enabled servers, except "" (unprefixed). A prefix that defaults to a
  // name already reported as taken is not reported again.
  const prefixOwner = new Map<string, ServerEntry>();
  for (const e of entries) {
    const explicit = e.raw.prefix;
    if (!isEnabled(e.raw) || (typeof explicit !== 'string' && badName.has(e))) continue;
    const prefix = typeof explicit === 'string' ? (PREFIX_PATTERN.test(explicit) ? explicit : undefined) : e.name;
    if (prefix === undefined || prefix === '') continue;
    const first = prefixOwner.get(prefix);
    if (first) {
      const how = typeof explicit === 'string' ? '' : ' (the prefix defaults to the name)';
      at([...e.path, 'prefix'], `same prefix as ${formatPath(first.path)}${how}; prefixes of enabled servers must be unique`);
    } else prefixOwner.set(prefix, e);
  }
  return problems;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const MiB = 1024 * 1024;

/** The resource limits besides maxMessageBytes and shutdownGrace, with their defaults (docs/configuration.md). */
function limitsOf(l: UserConfig['limits']): Omit<GatewayConfig['limits'], 'maxMessageBytes' | 'shutdownGraceMs'> {
  return {
    maxDepth: l?.maxDepth ?? 512,
    maxCallsPerSession: l?.maxCallsPerSession ?? 64,
    maxCallsPerServer: l?.maxCallsPerServer ?? 256,
    sessionBytesInFlight: parseSize(l?.sessionBytesInFlight ?? 32 * MiB)!,
    totalBytesInFlight: parseSize(l?.totalBytesInFlight ?? 128 * MiB)!,
    writeBufferBytes: parseSize(l?.writeBuffer ?? 32 * MiB)!,
    maxSessions: l?.maxSessions ?? 1000,
    sessionIdleTimeoutMs: parseDuration(l?.sessionIdleTimeout ?? 3_600_000) ?? 3_600_000,
    maxIsolatedConnections: l?.maxIsolatedConnections ?? 32,
    maxConnections: l?.maxConnections ?? 512,
    requestTimeoutMs: parseDuration(l?.requestTimeout ?? 30_000) ?? 30_000,
    startupWaitMs: parseDuration(l?.startupWait ?? 5_000) ?? 5_000,
  };
}
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Maps a file that passed validation and crossCheck onto the normalized config. */
export function toGatewayConfig(data: UserConfig, baseDir: string): GatewayConfig {
  const servers: ServerConfig[] = serverEntries(data).map((e) => {
    const raw = e.raw as Record<string, unknown> & NonNullable<UserConfig['servers']>[number];
    const claude = e.raw as { type?: string; disabled?: boolean };
    const base = {
      name: e.name!,
      prefix: raw.prefix ?? e.name!,
      enabled: isEnabled(e.raw),
      // (The fallbacks only serve disabled servers whose field held an unset variable.)
      timeoutMs: parseDuration(raw.timeout ?? DEFAULT_TIMEOUT_MS) ?? DEFAULT_TIMEOUT_MS,
      startupTimeoutMs: parseDuration(raw.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS) ?? DEFAULT_STARTUP_TIMEOUT_MS,
      isolation: raw.isolation ?? 'shared',
      reconnect: {
        initialDelayMs: parseDuration(raw.reconnect?.initialDelay ?? 500) ?? 500,
        maxDelayMs: parseDuration(raw.reconnect?.maxDelay ?? 30_000) ?? 30_000,
        maxFailures: raw.reconnect?.maxFailures ?? 10,
      },
      downtimeGraceMs: parseDuration(raw.downtimeGrace ?? 30_000) ?? 30_000,
      tools: filterRules(raw.tools),
      prompts: filterRules(raw.prompts),
      resources: filterRules(raw.resources),
    };
    if (raw.command !== undefined) {
      return {
        kind: 'stdio',
        ...base,
        command: raw.command,
        args: Array.isArray(raw.args) ? [...raw.args] : [],
        env: isRecord(raw.env) ? { ...raw.env } : {},
        inheritEnv: raw.inheritEnv ?? false,
        cwd: resolve(baseDir, raw.cwd ?? '.'),
      };
    }
    const transport = transports.includes(raw.transport!) ? raw.transport! : (transportOfType(claude.type) ?? 'auto');
    return { kind: 'http', ...base, url: raw.url!, transport, headers: isRecord(raw.headers) ? { ...raw.headers } : {} };
  });

  return {
    listen: {
      host: data.listen?.host ?? '127.0.0.1',
      port: data.listen?.port ?? 8808,
      path: data.listen?.path ?? '/mcp',
      allowedOrigins: [...(data.listen?.allowedOrigins ?? [])],
      ...(data.listen?.allowedHosts !== undefined ? { allowedHosts: [...data.listen.allowedHosts] } : {}),
    },
    naming: { separator: data.naming?.separator ?? '__', mode: data.naming?.mode ?? 'always' },
    catalog: { pageSize: data.catalog?.pageSize ?? 100 },
    limits: {
      maxMessageBytes: parseSize(data.limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES)!,
      shutdownGraceMs: parseDuration(data.limits?.shutdownGrace ?? 10_000) ?? 10_000,
      ...limitsOf(data.limits),
    },
    servers,
    ...toPolicyConfig(data, baseDir),
  };
}
