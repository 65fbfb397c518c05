// Values in servers' answers that name a resource pass the policy of the list they would appear
// in: the server's resource rules judge its own URI, the client profile's judge the URI as the
// client sees it (renamed where the catalog renamed it). What fails leaves the answer before the
// client sees it: links, embedded resources and UI pointers in tool results, prompt messages,
// read contents, sampling requests, completion values. Pure; objects are copied only where
// something goes.

import { canonicalUri } from '../policy/uri.js';
import { ALLOW_EVERY_URI } from '../policy/uri-filter.js';
import type { Catalog } from './build.js';
import type { CatalogView } from './view.js';
import { rewriteToolUi } from './ui-uris.js';
import { EXPANSIONS, expandTemplate } from './uri-template.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** Whether a client may see a server's URI named: the server's URI, and the client's spelling of it. */
export type UriPairJudge = (serverUri: string, exposedUri: string) => boolean;
/** The same for a URI the server wrote, spelled for the client the way the catalog spells it. */
export type UriJudge = (serverUri: string) => boolean;

/** The judge of URIs in `server`'s answers to a client of `view`; undefined when no rule judges any. */
export function uriPairJudge(catalog: Catalog, view: CatalogView, server: string): UriPairJudge | undefined {
  const own = catalog.resourcePolicy.get(server) ?? (() => false);
  const client = view.allowsUri;
  if (own === ALLOW_EVERY_URI && client === ALLOW_EVERY_URI) return undefined;
  return (serverUri, exposedUri) => own(serverUri) && client(exposedUri);
}

export function uriJudge(catalog: Catalog, view: CatalogView, server: string): UriJudge | undefined {
  const pair = uriPairJudge(catalog, view, server);
  if (pair === undefined) return undefined;
  const renamed = catalog.renamedUris.get(server);
  return (uri) => pair(uri, renamed?.get(uri) ?? uri);
}

/** A content block that names no resource the client may not see (resource_link, embedded resource). */
function blockAllowed(block: unknown, judge: UriJudge): boolean {
  if (!isJsonObject(block)) return true;
  if (block.type === 'resource_link' && typeof block.uri === 'string') return judge(block.uri);
  const resource = block.resource;
  if (block.type === 'resource' && isJsonObject(resource) && typeof resource.uri === 'string') return judge(resource.uri);
  return true;
}

function blocksAllowed(blocks: unknown[], judge: UriJudge): unknown[] {
  const kept = blocks.filter((b) => blockAllowed(b, judge));
  return kept.length === blocks.length ? blocks : kept;
}

/** tools/call (and a task's) result: its content blocks, and its UI pointer (MCP Apps). */
export function judgeToolResult<T extends JsonObject>(result: T, judge: UriJudge | undefined): T {
  if (!judge || result === null || typeof result !== 'object') return result;
  const withUi = rewriteToolUi(result, (uri) => (judge(uri) ? uri : null));
  if (!Array.isArray(withUi.content)) return withUi;
  const content = blocksAllowed(withUi.content, judge);
  return content === withUi.content ? withUi : { ...withUi, content };
}

/** prompts/get result: a message whose content names a resource the client may not see goes. */
export function judgePromptResult<T extends JsonObject>(result: T, judge: UriJudge | undefined): T {
  if (!judge || !Array.isArray(result?.messages)) return result;
  let changed = false;
  const messages: unknown[] = [];
  for (const m of result.messages as unknown[]) {
    if (!isJsonObject(m)) {
      messages.push(m);
    } else if (Array.isArray(m.content)) {
      const content = blocksAllowed(m.content, judge);
      changed ||= content !== m.content;
      messages.push(content === m.content ? m : { ...m, content });
    } else if (blockAllowed(m.content, judge)) {
      messages.push(m);
    } else {
      changed = true;
    }
  }
  return changed ? { ...result, messages } : result;
}

/** resources/read result: contents of resources the client may not see go (a server may answer more than was asked). */
export function judgeReadResult<T extends JsonObject>(result: T, judge: UriJudge | undefined): T {
  if (!judge || !Array.isArray(result?.contents)) return result;
  const contents = (result.contents as unknown[]).filter((c) => !isJsonObject(c) || typeof c.uri !== 'string' || judge(c.uri));
  return contents.length === result.contents.length ? result : { ...result, contents };
}

/** A sampling message's block with what names a denied resource taken out; undefined when the block itself goes. */
function samplingBlock(block: unknown, judge: UriJudge): unknown {
  if (!blockAllowed(block, judge)) return undefined;
  // A tool's result inside a sampling conversation carries content blocks like a tools/call answer.
  if (!isJsonObject(block) || block.type !== 'tool_result' || !Array.isArray(block.content)) return block;
  const content = blocksAllowed(block.content, judge);
  return content === block.content ? block : { ...block, content };
}

/**
 * sampling/createMessage params (a server's request to the client): links and embedded resources
 * the client may not see leave its messages, as they leave a tool's result; a message made of
 * nothing else goes.
 */
export function judgeSamplingRequest<T extends JsonObject>(params: T | undefined, judge: UriJudge | undefined): T | undefined {
  if (!judge || !Array.isArray(params?.messages)) return params;
  let changed = false;
  const messages: unknown[] = [];
  for (const m of params.messages as unknown[]) {
    // A message that is not an object has no content: it goes, as one whose content goes.
    const mc = isJsonObject(m) ? m.content : undefined;
    if (Array.isArray(mc)) {
      const blocks = mc as unknown[];
      const content = blocks.map((b) => samplingBlock(b, judge)).filter((b) => b !== undefined);
      const same = content.length === blocks.length && content.every((b, i) => b === blocks[i]);
      changed ||= !same;
      if (content.length > 0 || blocks.length === 0) messages.push(same ? m : { ...(m as JsonObject), content });
    } else {
      const block = samplingBlock(mc, judge);
      changed ||= block !== mc;
      if (block !== undefined) messages.push(block === mc ? m : { ...(m as JsonObject), content: block });
    }
  }
  return changed ? { ...params, messages } : params;
}

/**
 * completion/complete result with the values `keep` refuses taken out. `total` stays true to what
 * is left: recounted when the values were all there was (no hasMore), else dropped.
 */
export function judgeCompletion<T extends JsonObject>(result: T, keep: (value: string) => boolean): T {
  const c = result?.completion;
  if (!isJsonObject(c) || !Array.isArray(c.values)) return result;
  const values = (c.values as unknown[]).filter((v) => typeof v !== 'string' || keep(v));
  if (values.length === c.values.length) return result;
  const { total, ...rest } = c;
  const completion: JsonObject = { ...rest, values };
  if (c.hasMore !== true && total === c.values.length) completion.total = values.length;
  return { ...result, completion };
}

export interface TemplateRef {
  /** The template as the client knows it, and as its server does. */
  exposed: string;
  original: string;
  /** The argument being completed, and the values of the others the client gave. */
  argument: string;
  context: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Whether a value completing a template's variable may be shown: the URI it makes, in each
 * spelling a client may make it (RFC 6570 and pasted raw), is never one the rules deny, and at
 * least one spelling is a URI the client may read.
 */
export function templateValueAllowed(value: string, ref: TemplateRef, judge: UriPairJudge): boolean {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(ref.context ?? {})) if (typeof v === 'string') vars[k] = v;
  vars[ref.argument] = value;
  let readable = false;
  for (const mode of EXPANSIONS) {
    const serverUri = expandTemplate(ref.original, vars, mode);
    if (judge(serverUri, expandTemplate(ref.exposed, vars, mode))) readable = true;
    else if (canonicalUri(serverUri).ok) return false; // a URI the rules deny (not one no rule can judge)
  }
  return readable;
}

/**
 * Whether a value of a prompt's argument may be shown: a value names a resource when the gateway
 * would route a read of it; then the prompt's server's rules and the client's must allow it, and
 * a server that would serve it must allow it too. Any other value names nothing and passes.
 */
export function promptValueAllowed(value: string, catalog: Catalog, view: CatalogView, server: string): boolean {
  const targets = catalog.resources.route(value);
  if (targets.length === 0) return true;
  if (!(catalog.resourcePolicy.get(server)?.(value) ?? false) || !view.allowsUri(value)) return false;
  return targets.some((t) => catalog.resourcePolicy.get(t.server)?.(t.uri) ?? false);
}
