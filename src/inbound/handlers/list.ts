// tools/list, prompts/list, resources/list, resources/templates/list: served from the catalog
// snapshot with the gateway's own cursors. Never fans out to servers.

import { toolsForClient } from '../../catalog/apps.js';
import { pageBounds } from '../../catalog/cursor.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { RpcError } from '../../errors.js';
import { KINDS, type ListKind } from '../../protocol/mcp.js';
import type { Handler } from '../context.js';
import { servedList } from '../served.js';
import type { JsonObject } from '../../protocol/json.js';

export function listHandler(kind: ListKind): Handler {
  const key = KINDS[kind].key;
  return async (params, { gateway, view, client }) => {
    // MCP Apps: a tool for an app alone is listed only to clients that render apps.
    const list = kind === 'tools' ? toolsForClient(servedList(view, kind), client.clientCapabilities) : servedList(view, kind);
    let after: ReturnType<typeof gateway.cursors.decode>;
    if (params?.cursor !== undefined) {
      after = typeof params.cursor === 'string' ? gateway.cursors.decode(params.cursor) : undefined;
      if (!after || after.kind !== kind) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
    }
    const entries = list.entries;
    const keys = { length: entries.length, indexOf: (k: string) => list.index.get(k) ?? -1, at: (i: number) => entries[i]?.key };
    const { start, end, next } = pageBounds(keys, gateway.config.catalog.pageSize, after, kind);
    const items = new Array(end - start);
    for (let i = start; i < end; i++) items[i - start] = entries[i]!.item;
    const result: JsonObject = { [key]: items };
    if (next) result.nextCursor = gateway.cursors.encode(next);
    return result;
  };
}
