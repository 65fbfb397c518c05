// Fetches every page of one list from a server. A server whose cursors never end, or repeat, is
// stopped rather than followed forever.

import { GatewayError, RpcError, describeError } from '../errors.js';
import type { Logger } from '../log.js';
import { KINDS, type ListKind } from '../protocol/mcp.js';

/** What fetching needs of a connection: a Peer, or one that stamps each request first. */
export interface Requester {
  request(method: string, params?: Record<string, any>, options?: { timeoutMs?: number }): Promise<Record<string, any>>;
}

/** Pages fetched per list at most. */
const MAX_PAGES = 10_000;

export async function fetchAll(peer: Requester, kind: ListKind, timeoutMs: number, server: string, logger: Logger): Promise<Record<string, any>[]> {
  const { method, key } = KINDS[kind];
  const items: Record<string, any>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let result: Record<string, any>;
    try {
      result = await peer.request(method, cursor === undefined ? undefined : { cursor }, { timeoutMs });
    } catch (err) {
      // Templates are optional even for servers with resources; older servers answer -32601.
      if (kind === 'resourceTemplates' && err instanceof RpcError) return items;
      throw new GatewayError('PROTOCOL_ERROR', `${method} failed: ${describeError(err)}`, { server, cause: err });
    }
    const batch = result[key];
    if (Array.isArray(batch)) for (const item of batch) if (item && typeof item === 'object') items.push(item);
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '' || seen.has(next)) return items;
    seen.add(next);
    cursor = next;
  }
  logger.warn({ method }, `stopped after ${MAX_PAGES} pages`);
  return items;
}
