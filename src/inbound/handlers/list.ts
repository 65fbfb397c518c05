// tools/list, prompts/list, resources/list, resources/templates/list: served from the catalog
// snapshot with the gateway's own cursors. Never fans out to servers.

import { toolsForClient } from '../../catalog/apps.js';
import { pageBounds } from '../../catalog/cursor.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import { RpcError } from '../../errors.js';
import { KINDS, type ListKind } from '../../protocol/mcp.js';
import type { Handler } from '../context.js';
import type { CatalogList } from '../../catalog/build.js';
import type { CatalogView } from '../../catalog/view.js';

/** What a list request answers for `kind`: the view's list, or for tools what its mode shows. */
export function servedList(view: CatalogView, kind: ListKind): CatalogList {
  return kind === 'tools' ? view.exposure().served : view.lists[kind];
}

export function listHandler(kind: ListKind): Handler {
  const key = KINDS[kind].key;
  return async (params, { router, view, client }) => {
    // MCP Apps: a tool for an app alone is listed only to clients that render apps.
    const list = kind === 'tools' ? toolsForClient(servedList(view, kind), client.clientCapabilities) : servedList(view, kind);
    let after;
    if (params?.cursor !== undefined) {
      after = typeof params.cursor === 'string' ? router.cursors.decode(params.cursor) : undefined;
      if (!after || after.kind !== kind) throw new RpcError(ErrorCode.InvalidParams, 'Invalid cursor');
    }
    const entries = list.entries;
    const keys = { length: entries.length, indexOf: (k: string) => list.index.get(k) ?? -1, at: (i: number) => entries[i]?.key };
    const { start, end, next } = pageBounds(keys, router.pageSize, after, kind);
    const items = new Array(end - start);
    for (let i = start; i < end; i++) items[i - start] = entries[i]!.item;
    const result: Record<string, any> = { [key]: items };
    if (next) result.nextCursor = router.cursors.encode(next);
    return result;
  };
}
