// The server entries of a config tree in both shapes (`servers[]` first, then `mcpServers`), with
// where each sits in the file and the name it goes by. Works on unvalidated trees: the cross-field
// checks run on them before (and besides) the schema, so nothing here assumes a valid field.

import type { Segment } from './problems.js';
import { MAX_NAME_LENGTH, NAME_PATTERN } from './schema-values.js';
import type { TRANSPORTS } from './schema-server.js';

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

export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export const validName = (s: string): boolean => NAME_PATTERN.test(s) && s.length <= MAX_NAME_LENGTH;

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

/** `enabled: false` and Claude Desktop's `disabled: true` both switch a server off. */
export const isEnabled = (raw: Record<string, unknown>): boolean => raw.enabled !== false && raw.disabled !== true;

type Transport = (typeof TRANSPORTS)[number];
const transportOfTypes: Record<string, Transport> = { http: 'streamable-http', 'streamable-http': 'streamable-http', sse: 'sse' };

/** The transport a Claude Desktop `type` implies; undefined for stdio, for none and for anything invalid. */
export const transportOfType = (type: unknown): Transport | undefined => (typeof type === 'string' && Object.hasOwn(transportOfTypes, type) ? transportOfTypes[type] : undefined);
