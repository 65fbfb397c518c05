import { describe, expect, it } from 'vitest';
import { countTokens, estimateTokens, loadTokenCounter, serializeToolsForModel, toolListTokens } from '../../../src/search/tokens.js';
import { META_TOOLS } from '../../../src/search/meta-tools.js';

describe('token counting', () => {
  it('counts o200k tokens, loading the tokenizer once', async () => {
    expect(await countTokens('hello world')).toBe(2);
    expect(await countTokens('')).toBe(0);
    const [a, b] = await Promise.all([loadTokenCounter(), loadTokenCounter()]);
    expect(a).toBe(b);
  });

  it('estimates JSON tool lists within 15% of the real count', async () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({
      name: `server__tool_number_${i}`,
      description: `Does thing ${i}: reads the items of a project and returns them with their owners, labels and dates.`,
      inputSchema: { type: 'object', properties: { project: { type: 'string', description: 'Project ID' }, limit: { type: 'integer' } }, required: ['project'] },
    }));
    const text = serializeToolsForModel(tools);
    const exact = await countTokens(text);
    expect(Math.abs(estimateTokens(text) / exact - 1)).toBeLessThan(0.15);
  });

  it('estimates other scripts by character, not by byte', () => {
    expect(estimateTokens('文件搜索')).toBeGreaterThanOrEqual(3);
    expect(estimateTokens('文件搜索')).toBeLessThanOrEqual(5);
  });

  it('serialises tools as name, description and input_schema only', () => {
    const json = JSON.parse(serializeToolsForModel([{ name: 'a', inputSchema: { type: 'object' } }, ...META_TOOLS]));
    expect(json[0]).toEqual({ name: 'a', description: '', input_schema: { type: 'object' } });
    expect(Object.keys(json[1])).toEqual(['name', 'description', 'input_schema']);
    expect(json.map((t: { name: string }) => t.name)).toEqual(['a', 'search_tools', 'call_tool']);
  });

  it('counts a tool list exactly with a counter and estimates it without', async () => {
    const counter = await loadTokenCounter();
    const tools = [...META_TOOLS];
    expect(toolListTokens(tools, counter)).toBe(await countTokens(serializeToolsForModel(tools)));
    expect(toolListTokens(tools)).toBe(estimateTokens(serializeToolsForModel(tools)));
  });
});
