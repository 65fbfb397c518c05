// The gateway's own two tools of search mode: search_tools (query → the best matching tools the
// caller may see, with their full definitions) and call_tool (calls one of them exactly as
// tools/call would). Only tools the caller's view holds are ever returned, and never one meant
// for an app's UI alone (MCP Apps visibility without "model"); held-back tools are not in the
// catalog at all. Bad input is a tool error (isError), as the spec asks for input validation.

import { hiddenFromModel } from '../../catalog/tool-exposure.js';
import { RpcError } from '../../errors.js';
import type { RawResponse } from '../../jsonrpc/raw.js';
import { ErrorCode } from '../../protocol/jsonrpc.js';
import type { RequestContext } from '../context.js';

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

function readable(tools: Record<string, any>[], query: string): string {
  if (tools.length === 0) return `No tool matches "${query}". Try other words for the task.`;
  const lines = tools.map((t, i) => `${i + 1}. ${t.name}${t.title ? ` (${t.title})` : ''}: ${String(t.description ?? '').split('\n')[0]}`);
  return `Tools for "${query}", best first (call one with its name and arguments):\n${lines.join('\n')}`;
}

export async function searchTools(args: Record<string, any> | undefined, context: RequestContext): Promise<Record<string, any>> {
  const query = args?.query;
  if (typeof query !== 'string' || query.trim() === '') return toolError('query must be a non-empty string: the task, in plain words');
  const wanted = args?.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_LIMIT) return toolError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  const tools = (await context.router.findTools(context.view, query, wanted)).map((h) => h.tool);
  return { content: [{ type: 'text', text: readable(tools, query) }], structuredContent: { tools } };
}

/**
 * call_tool is the model's: it reaches exposed names only (never an app's own names) and never a
 * tool meant for an app alone; the gateway's own two tools pass (tools/call answers them).
 */
function callableByModel(context: RequestContext, name: string): boolean {
  const own = context.router.catalog.exposure.settingsFor(context.session.profile);
  if (name === own.searchTool || name === own.callTool) return true;
  const tools = context.view.lists.tools;
  const i = tools.index.get(name);
  return i !== undefined && !hiddenFromModel(tools.entries[i]!.item);
}

/** call_tool: `{ name, arguments }` goes through tools/call's own path (policy, sanitizer, audit, errors, progress). */
export async function callNamedTool(
  args: Record<string, any> | undefined,
  meta: Record<string, any> | undefined,
  context: RequestContext,
  call: (params: Record<string, any>, context: RequestContext) => Promise<Record<string, any> | RawResponse>,
): Promise<Record<string, any> | RawResponse> {
  const name = args?.name;
  if (typeof name !== 'string' || name === '') return toolError('name must be the exact name of a tool, as search_tools returned it');
  if (!callableByModel(context, name)) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const params: Record<string, any> = { name, arguments: args?.arguments ?? {} };
  if (meta !== undefined) params._meta = meta;
  return call(params, context);
}
