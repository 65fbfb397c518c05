// Parsing one JSON-RPC text as it enters the gateway, from a client or from a server: JSON.parse
// once, then the nesting bound (see depth.ts). A message too deep is not returned, only what is
// needed to answer or fail it: its top-level id and method, read without walking the deep part.

import { exceedsDepth } from './depth.js';
import type { JsonRpcId } from '../protocol/jsonrpc.js';

export type ParsedText = { ok: true; value: unknown } | { ok: false; why: 'invalid-json' } | { ok: false; why: 'too-deep'; id?: JsonRpcId; method?: string };

export function parseJsonText(text: string, maxDepth: number): ParsedText {
  let value: unknown;
  try {
    // V8's parser is iterative: any depth parses; only what comes after would overflow.
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: 'invalid-json' };
  }
  if (!exceedsDepth(text, maxDepth)) return { ok: true, value };
  const top = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const id = typeof top.id === 'string' || (typeof top.id === 'number' && Number.isFinite(top.id)) ? top.id : undefined;
  const method = typeof top.method === 'string' ? top.method : undefined;
  return { ok: false, why: 'too-deep', id, method };
}

/** The limit when the config gives none: far below where V8's stack gives out (~3,000 levels). */
export const DEFAULT_MAX_DEPTH = 512;
