// A client application's own config file used as is (Claude Desktop's claude_desktop_config.json,
// Cursor's mcp.json): a JSON object with `mcpServers` and none of the gateway's own keys. Only its
// servers are read; its other keys (globalShortcut, preferences, …) belong to the application.

import { configSchema } from './schema.js';

/** The gateway's own top-level keys, besides mcpServers and $schema. */
const GATEWAY_KEYS = new Set(Object.keys(configSchema.shape).filter((k) => k !== 'mcpServers' && k !== '$schema'));

export interface ClientFile {
  /** The tree with only the keys the gateway reads. */
  tree: Record<string, unknown>;
  /** The application's keys that were left alone, in file order. */
  ignored: string[];
}

/**
 * Whether a parsed file is a client's config, and if so the part of it the gateway reads. A
 * YAML file, or one with any gateway key, is a gateway config: every unknown key in it stays an
 * error (a typo must not be ignored).
 */
export function asClientFile(text: string, tree: Record<string, unknown>): ClientFile | undefined {
  if (!text.trimStart().startsWith('{') || !('mcpServers' in tree)) return undefined;
  const keys = Object.keys(tree);
  if (keys.some((k) => GATEWAY_KEYS.has(k))) return undefined;
  const ignored = keys.filter((k) => k !== 'mcpServers' && k !== '$schema');
  if (ignored.length === 0) return undefined;
  const kept: Record<string, unknown> = { mcpServers: tree.mcpServers };
  if ('$schema' in tree) kept.$schema = tree.$schema;
  return { tree: kept, ignored };
}
