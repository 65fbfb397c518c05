// The gateway's `instructions`: each ready server's own, under its name, after one line saying
// how names are made, so a model knows which server an instruction speaks of.

import type { GatewayConfig } from '../config/types.js';
import type { ServerConnection } from '../outbound/server-connection.js';

export function mergeInstructions(connections: Iterable<ServerConnection>, naming: GatewayConfig['naming']): string | undefined {
  const parts: string[] = [];
  for (const c of connections) {
    if (c.state === 'ready' && c.instructions) parts.push(`## ${c.name}\n\n${c.instructions.trim()}`);
  }
  if (parts.length === 0) return undefined;
  const header =
    naming.mode === 'always'
      ? `This endpoint merges several MCP servers. Tool and prompt names are prefixed with their server's prefix and "${naming.separator}". Instructions from each server follow.`
      : 'This endpoint merges several MCP servers. Instructions from each server follow.';
  return `${header}\n\n${parts.join('\n\n')}`;
}
