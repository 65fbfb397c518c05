// The gateway's `instructions`: each server's own (already cleaned by the catalog's guard), under
// its name, after one line saying how names are made, so a model knows which server an
// instruction speaks of. Pure: the caller picks the servers a client's profile may see.

import type { GatewayConfig } from '../config/types.js';

export function mergeInstructions(servers: Iterable<[name: string, text: string]>, naming: GatewayConfig['naming']): string | undefined {
  const parts: string[] = [];
  for (const [name, text] of servers) parts.push(`## ${name}\n\n${text.trim()}`);
  if (parts.length === 0) return undefined;
  const header =
    naming.mode === 'always'
      ? `This endpoint merges several MCP servers. Tool and prompt names are prefixed with their server's prefix and "${naming.separator}". Instructions from each server follow.`
      : 'This endpoint merges several MCP servers. Instructions from each server follow.';
  return `${header}\n\n${parts.join('\n\n')}`;
}
