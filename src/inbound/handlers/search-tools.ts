// The gateway's own tools of search mode: search_tools (query, optionally some servers → the best
// matching tools the caller may see, each with its server and full definition; nothing found →
// the server directory; in code mode each with its TypeScript signature), list_servers (the
// directory) and call_tool (calls a tool exactly as tools/call would). Only tools the caller's
// view holds are ever returned, and never one meant for an app's UI alone (MCP Apps visibility
// without "model"); held-back tools are not in the catalog at all. Bad input is a tool error
// (isError), as the spec asks for input validation.

import type { ServerDirectory } from '../../catalog/server-directory.js';
import { hiddenFromModel, toolDefinition } from '../../catalog/tool-exposure.js';
import { RpcError } from '../../errors.js';
import type { RawResponse } from '../../jsonrpc/raw.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { Handler, RequestContext } from '../context.js';
import { type JsonObject, isJsonObject } from '../../protocol/json.js';

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

/** The directory as structured content: what list_servers returns, and a search that found nothing. */
const serversOf = (directory: ServerDirectory) => directory.lines.map((l) => ({ name: l.server, tools: l.tools, purpose: l.purpose }));

/** A tool as search_tools shows it: its definition, its server, and in code mode its signature. */
type ShownTool = JsonObject & { server: string; signature?: string };

function readable(tools: ShownTool[], query: string): string {
  const lines = tools.map((t, i) => `${i + 1}. [${t.server}] ${t.name}${t.title ? ` (${t.title})` : ''}: ${String(t.description ?? '').split('\n')[0]}${t.signature ? `\n${t.signature}` : ''}`);
  const how = tools.some((t) => t.signature) ? 'call one from a script with its signature' : 'call one with its name and arguments';
  return `Tools for "${query}", best first, each with its [server] (${how}):\n${lines.join('\n')}`;
}

/** What a search that matched nothing answers: the servers there are, so the next query can aim better. */
function nothingFound(query: string, servers: readonly string[] | undefined, directory: ServerDirectory): JsonObject {
  const among = servers ? ` among the tools of ${servers.join(', ')}` : '';
  const text =
    directory.lines.length === 0
      ? `No tool matches "${query}": no server has tools for this client.`
      : `No tool matches "${query}"${among}. The servers are:\n${directory.text}\nSearch again with other words, or name a server (\`server\`) to search only its tools.`;
  return { content: [{ type: 'text', text }], structuredContent: { tools: [], servers: serversOf(directory) } };
}

/** `server` as a list of names (one name, or several); a message when it is neither. */
function serverNames(value: unknown): string[] | undefined | string {
  if (value === undefined || value === null) return undefined;
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return 'server must be a server name, or a list of server names';
  return names.length === 0 ? undefined : names;
}

/** A tool's arguments as the model sent them: anything but an object has none of the fields asked for. */
function argsOf(args: unknown): JsonObject {
  return isJsonObject(args) ? args : {};
}

export async function searchTools(args: unknown, context: RequestContext): Promise<JsonObject> {
  const { query, limit, server } = argsOf(args);
  if (typeof query !== 'string' || query.trim() === '') return toolError('query must be a non-empty string: a few words naming the capability you need');
  const wanted = limit ?? DEFAULT_LIMIT;
  if (typeof wanted !== 'number' || !Number.isInteger(wanted) || wanted < 1 || wanted > MAX_LIMIT) return toolError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  const names = serverNames(server);
  if (typeof names === 'string') return toolError(names);
  const directory = context.view.directory();
  const unknown = names?.filter((n) => !directory.servers.has(n)) ?? [];
  if (unknown.length > 0) {
    const valid = [...directory.servers].join(', ') || 'none';
    return toolError(`Unknown server${unknown.length > 1 ? 's' : ''}: ${unknown.map((n) => JSON.stringify(n)).join(', ')}. The servers are: ${valid}.`);
  }
  const found = await context.finder.find(context.view, query, { limit: wanted, servers: names && new Set(names) });
  if (found.length === 0) return nothingFound(query, names, directory);
  const tools: ShownTool[] = found.map(({ entry }) => ({ ...toolDefinition(entry.item), server: entry.server }));
  // Code mode: each tool as a script calls it, so the next step is writing the script.
  if (context.view.exposure().mode === 'code') {
    const { signatureOf, viewCallables } = await import('../code-callables.js');
    const { names } = viewCallables(context.view.lists.tools.entries);
    found.forEach(({ entry }, i) => {
      const n = names.get(entry.server, entry.original);
      if (n !== undefined) tools[i]!.signature = signatureOf(n);
    });
  }
  return { content: [{ type: 'text', text: readable(tools, query) }], structuredContent: { tools } };
}

/** list_servers: the server directory of the caller's view, as text and as structured content. */
export function listServers(context: RequestContext): JsonObject {
  const directory = context.view.directory();
  const search = context.gateway.catalog.exposure.settingsFor(context.session.profile).searchTool;
  const text = directory.lines.length === 0 ? 'No server has tools for this client.' : `Servers (give names as \`server\` to ${search} to search only their tools):\n${directory.text}`;
  return { content: [{ type: 'text', text }], structuredContent: { servers: serversOf(directory) } };
}

/**
 * call_tool is the model's: it reaches exposed names only (never an app's own names) and never a
 * tool meant for an app alone; the gateway's own tools pass (tools/call answers them).
 */
function callableByModel(context: RequestContext, name: string): boolean {
  const own = context.gateway.catalog.exposure.settingsFor(context.session.profile);
  if (name === own.searchTool || name === own.callTool || name === own.listServersTool) return true;
  const tools = context.view.lists.tools;
  const i = tools.index.get(name);
  return i !== undefined && !hiddenFromModel(tools.entries[i]!.item);
}

/** call_tool: `{ name, arguments }` goes through tools/call's own path (policy, sanitizer, audit, errors, progress). */
export async function callNamedTool(args: unknown, meta: unknown, context: RequestContext, call: Handler): Promise<JsonObject | RawResponse> {
  const given = argsOf(args);
  const name = given.name;
  if (typeof name !== 'string' || name === '') return toolError('name must be the exact name of a tool, as search_tools returned it');
  if (!callableByModel(context, name)) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const params: JsonObject = { name, arguments: given.arguments ?? {} };
  if (meta !== undefined) params._meta = meta;
  return call(params, context);
}
