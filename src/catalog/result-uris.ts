// URIs inside answers, translated like the lists: when a server's resource is exposed under a
// namespaced URI (another server had the same one first), links to it in that server's tool
// results, prompt messages and read results carry the exposed URI, so a client can follow them
// through the gateway; so do `ui://` URIs of servers that ship MCP Apps. Objects are copied only
// where something changes.

import type { UriRenames } from './build.js';
import { rewriteToolUi } from './ui-uris.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** A content block with its resource's URI renamed; anything else (not a block, no URI) as it is. */
function content(block: unknown, renamed: UriRenames): unknown {
  if (!isJsonObject(block)) return block;
  if (block.type === 'resource_link' && typeof block.uri === 'string') {
    const uri = renamed.get(block.uri);
    return uri === undefined ? block : { ...block, uri };
  }
  const resource = block.resource;
  if (block.type === 'resource' && isJsonObject(resource) && typeof resource.uri === 'string') {
    const uri = renamed.get(resource.uri);
    return uri === undefined ? block : { ...block, resource: { ...resource, uri } };
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
export function renameInToolResult<T extends JsonObject>(result: T, renamed: UriRenames | undefined): T {
  if (!renamed) return result;
  const withUi = rewriteToolUi(result, (uri) => renamed.get(uri) ?? uri);
  if (!Array.isArray(withUi.content)) return withUi;
  const blocks = mapChanged(withUi.content as unknown[], (b) => content(b, renamed));
  return blocks === withUi.content ? withUi : { ...withUi, content: blocks };
}

/** prompts/get result: each message's content block. */
export function renameInPrompt<T extends JsonObject>(result: T, renamed: UriRenames | undefined): T {
  if (!renamed || !Array.isArray(result.messages)) return result;
  const messages = mapChanged(result.messages as unknown[], (m) => {
    if (!isJsonObject(m)) return m;
    const c = content(m.content, renamed);
    return c === m.content ? m : { ...m, content: c };
  });
  return messages === result.messages ? result : { ...result, messages };
}

/** resources/read result: each content's uri. */
export function renameInRead<T extends JsonObject>(result: T, renamed: UriRenames | undefined): T {
  if (!renamed || !Array.isArray(result.contents)) return result;
  const contents = mapChanged(result.contents as unknown[], (c) => {
    const uri = isJsonObject(c) && typeof c.uri === 'string' ? renamed.get(c.uri) : undefined;
    return uri === undefined ? c : { ...(c as JsonObject), uri };
  });
  return contents === result.contents ? result : { ...result, contents };
}
