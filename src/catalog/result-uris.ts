// URIs inside answers, translated like the lists: when a server's resource is exposed under a
// namespaced URI (another server had the same one first), links to it in that server's tool
// results, prompt messages and read results carry the exposed URI, so a client can follow them
// through the gateway. Objects are copied only where something changes.

type Json = Record<string, any>;

function content(block: Json, renamed: Map<string, string>): Json {
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

/** tools/call result: content blocks. */
export function renameInToolResult(result: Json, renamed: Map<string, string> | undefined): Json {
  if (!renamed || !Array.isArray(result.content)) return result;
  const blocks = mapChanged(result.content as Json[], (b) => content(b, renamed));
  return blocks === result.content ? result : { ...result, content: blocks };
}

/** prompts/get result: each message's content block. */
export function renameInPrompt(result: Json, renamed: Map<string, string> | undefined): Json {
  if (!renamed || !Array.isArray(result.messages)) return result;
  const messages = mapChanged(result.messages as Json[], (m) => {
    const c = content(m?.content, renamed);
    return c === m?.content ? m : { ...m, content: c };
  });
  return messages === result.messages ? result : { ...result, messages };
}

/** resources/read result: each content's uri. */
export function renameInRead(result: Json, renamed: Map<string, string> | undefined): Json {
  if (!renamed || !Array.isArray(result.contents)) return result;
  const contents = mapChanged(result.contents as Json[], (c) => {
    const uri = typeof c?.uri === 'string' ? renamed.get(c.uri) : undefined;
    return uri === undefined ? c : { ...c, uri };
  });
  return contents === result.contents ? result : { ...result, contents };
}
