// What `await tools.x.y(args)` gives the script for an MCP CallToolResult: its structuredContent,
// else its text content (parsed when it is JSON); a result with isError: true throws instead.
// For the gateway's Bindings.call, which gets the result from the router and answers with this.

/** A tool failure (a result with isError: true), as the script's McpError sees it. */
export const TOOL_ERROR_CODE = -32000;

interface ContentItem {
  type?: unknown;
  text?: unknown;
}

export interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/** The value for the script, or throws {code, message, data} (what becomes an McpError in it). */
export function toolResultValue(result: ToolResultLike, where: { server: string; tool: string }): unknown {
  const content = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const texts = content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text as string);
  if (result.isError === true) {
    const message = texts.join('\n').trim() || 'the tool reported an error';
    throw Object.assign(new Error(message), { code: TOOL_ERROR_CODE, data: { ...where, isError: true } });
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (texts.length === 0) return content;
  const text = texts.join('\n');
  const trimmed = text.trim();
  if (/^[[{"]/.test(trimmed) || /^(-?\d|true$|false$|null$)/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      // Text that only looks like JSON: the script gets it as text.
    }
  }
  return text;
}
