// URIs inside answers, translated like the lists: when a server's resource is exposed under a
// namespaced URI (another server had the same one first), links to it in that server's tool
// results, prompt messages and read results carry the exposed URI, so a client can follow them
// through the gateway; so do `ui://` URIs of servers that ship MCP Apps. Objects are copied only
// where something changes.

import type { UriRenames } from './build.js';
import { rewriteToolUi } from './ui-uris.js';

type Json = Record<string, any>;

function content(block: Json, renamed: UriRenames): Json {
  if (block?.type === 'resource_link' && typeof block.uri === 'string') {
    const uri = renamed.get(block.uri);
    return uri === undefined ? block : { ...block, uri };
  }
  if (block?.type === 'resource' && typeof block.resource?.uri === 'string') {
    const uri = renamed.get(block.resource.uri);
    return uri === undefined ? block : { ...block, resource: { ...block.resource, uri } };
  }
  return block;
}

function mapChanged<T>(items: T[], fn: (item: T) => T): T[] {
  let out: T[] | undefined;
  items.forEach((item, i) => {
    const next = fn(item);
    if (next !== item) (out ??= items.slice())[i] = next;
  });
  return out ?? items;
}

/** tools/call result: content blocks, and a UI pointer in the result's `_meta` (MCP Apps). */
export function renameInToolResult(result: Json, renamed: UriRenames | undefined): Json {
  if (!renamed) return result;
  const withUi = rewriteToolUi(result, (uri) => renamed.get(uri) ?? uri);
  if (!Array.isArray(withUi.content)) return withUi;
  const blocks = mapChanged(withUi.content as Json[], (b) => content(b, renamed));
  return blocks === withUi.content ? withUi : { ...withUi, content: blocks };
}

/** prompts/get result: each message's content block. */
export function renameInPrompt(result: Json, renamed: UriRenames | undefined): Json {
  if (!renamed || !Array.isArray(result.messages)) return result;
  const messages = mapChanged(result.messages as Json[], (m) => {
    const c = content(m?.content, renamed);
    return c === m?.content ? m : { ...m, content: c };
  });
  return messages === result.messages ? result : { ...result, messages };
}

/** resources/read result: each content's uri. */
export function renameInRead(result: Json, renamed: UriRenames | undefined): Json {
  if (!renamed || !Array.isArray(result.contents)) return result;
  const contents = mapChanged(result.contents as Json[], (c) => {
    const uri = typeof c?.uri === 'string' ? renamed.get(c.uri) : undefined;
    return uri === undefined ? c : { ...c, uri };
  });
  return contents === result.contents ? result : { ...result, contents };
}
