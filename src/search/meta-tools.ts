// The two tools a client sees in search mode instead of the whole catalog: `search_tools`
// (query → best matching tools, full definitions) and `call_tool` (name + arguments). Proposed
// definitions; the gateway owns the behaviour. Their size is what search mode costs a model.

export const SEARCH_TOOLS_NAME = 'search_tools';
export const CALL_TOOL_NAME = 'call_tool';

export const SEARCH_TOOLS_TOOL = {
  name: SEARCH_TOOLS_NAME,
  title: 'Search tools',
  description:
    'Find the tools that can do a task. Describe the task in plain words (e.g. "create an issue about a crash", "list my calendar events tomorrow"); returns the best matching tools with their names, descriptions and input schemas. Then run one with call_tool.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you want to do, in plain words.' },
      limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Most tools to return.' },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
} as const;

export const CALL_TOOL_TOOL = {
  name: CALL_TOOL_NAME,
  title: 'Call a tool',
  description: 'Run a tool found with search_tools: give its exact name and its arguments, as described by its input schema.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Exact tool name, as returned by search_tools.' },
      arguments: { type: 'object', description: "The tool's arguments.", additionalProperties: true },
    },
    required: ['name'],
  },
} as const;

export const META_TOOLS = [SEARCH_TOOLS_TOOL, CALL_TOOL_TOOL] as const;
