// The tools a client sees in search mode instead of the whole catalog: `search_tools` (query →
// best matching tools, full definitions), `call_tool` (name + arguments) and, when the server
// directory is too long for search_tools' description, `list_servers`. The gateway owns their
// behaviour; their text is what search mode costs a model, and what teaches it to search well:
// models search best with short capability queries, aimed at a server when they know which.

export const SEARCH_TOOLS_NAME = 'search_tools';
export const CALL_TOOL_NAME = 'call_tool';
export const LIST_SERVERS_NAME = 'list_servers';

/** How search_tools learns which servers there are: in its own description, or from list_servers. */
export type DirectoryPlacement = { inline: string } | { tool: string } | undefined;

const GUIDANCE =
  'Find the tools for a task. Query with a few words naming the capability you need, in English (e.g. "create issue", "list calendar events", "send email"), not the whole request; search once per step of a task. Returns the best matching tools with their server, description and input schema; run one with call_tool. No good match? Search again with other words or another server: searching several times is normal.';

/** Code mode: what is found is called from a script, and each hit carries its TypeScript signature. */
const CODE_GUIDANCE =
  'Find the tools for a task. Query with a few words naming the capability you need, in English (e.g. "create issue", "list calendar events", "send email"), not the whole request; search once per step of a task. Returns the best matching tools with their server, description, input schema and TypeScript signature; call them from a run_code script as `await tools.<server>.<tool>(args)`. No good match? Search again with other words or another server: searching several times is normal.';

/** A tool the gateway itself offers, as tools/list gives it (the MCP Tool shape, fields the gateway fills). */
export interface GatewayTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, object>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean };
  [field: string]: unknown;
}

/**
 * search_tools' definition under the configured names, with the directory placed as given. With
 * `run` (code mode), found tools are called from that tool's scripts instead of call_tool.
 */
export function searchToolsTool(names: { search: string; call: string; run?: string }, directory?: DirectoryPlacement): GatewayTool {
  let description = names.run === undefined ? GUIDANCE.replace('call_tool', names.call) : CODE_GUIDANCE.replace('run_code', names.run);
  let serverHelp = 'Only search the tools of these servers.';
  if (directory && 'inline' in directory) {
    description += `\n\nServers (give a name as \`server\` to search only its tools):\n${directory.inline}`;
    serverHelp = 'Only search the tools of these servers (names from the list above).';
  } else if (directory && 'tool' in directory) {
    description += ` ${directory.tool} tells which servers there are and what each is for.`;
    serverHelp = `Only search the tools of these servers (names from ${directory.tool}).`;
  }
  return {
    name: names.search,
    title: 'Search tools',
    description,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'A few words naming the capability, e.g. "create issue".' },
        server: { type: 'array', items: { type: 'string' }, description: serverHelp },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Most tools to return.' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** call_tool's definition under the configured names. */
export function callToolTool(names: { search: string; call: string }): GatewayTool {
  return {
    name: names.call,
    title: 'Call a tool',
    description: `Run a tool found with ${names.search}: give its exact name and its arguments, as described by its input schema.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `Exact tool name, as returned by ${names.search}.` },
        arguments: { type: 'object', description: "The tool's arguments.", additionalProperties: true },
      },
      required: ['name'],
    },
  };
}

/** list_servers' definition (offered when the directory does not fit search_tools' description). */
export function listServersTool(name: string, search: string): GatewayTool {
  return {
    name,
    title: 'List servers',
    description: `The servers whose tools ${search} finds: each one's name, what it is for, and its tool count. Give names as ${search}'s \`server\` to search only their tools.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

const DEFAULT_NAMES = { search: SEARCH_TOOLS_NAME, call: CALL_TOOL_NAME };
export const SEARCH_TOOLS_TOOL = searchToolsTool(DEFAULT_NAMES);
export const CALL_TOOL_TOOL = callToolTool(DEFAULT_NAMES);
export const META_TOOLS = [SEARCH_TOOLS_TOOL, CALL_TOOL_TOOL] as const;
