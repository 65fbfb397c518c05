import { describe, expect, it } from 'vitest';
import { renameInPrompt, renameInRead, renameInToolResult } from '../../../src/catalog/result-uris.js';

const renamed = new Map([['file:///x', 'b+file:///x']]);

describe('URIs inside answers', () => {
  it('rewrites resource links and embedded resources of a tool result, and nothing else', () => {
    const result = {
      content: [
        { type: 'text', text: 'file:///x stays text' },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
        { type: 'resource', resource: { uri: 'file:///x', text: 'hi' } },
        { type: 'resource_link', uri: 'file:///other', name: 'o' },
      ],
      isError: false,
    };
    const out = renameInToolResult(result, renamed);
    expect(out.content.map((c: any) => c.uri ?? c.resource?.uri ?? c.text)).toEqual(['file:///x stays text', 'b+file:///x', 'b+file:///x', 'file:///other']);
    expect(out.content[3]).toBe(result.content[3]);
    expect(result.content[1]!.uri).toBe('file:///x'); // the server's object is not mutated
  });

  it('returns the very same object when nothing needs renaming', () => {
    const result = { content: [{ type: 'text', text: 'x' }] };
    expect(renameInToolResult(result, renamed)).toBe(result);
    expect(renameInToolResult(result, undefined)).toBe(result);
  });

  it('rewrites prompt messages and read contents', () => {
    const prompt = renameInPrompt({ messages: [{ role: 'user', content: { type: 'resource', resource: { uri: 'file:///x', text: 't' } } }] }, renamed);
    expect(prompt.messages[0].content.resource.uri).toBe('b+file:///x');
    const read = renameInRead({ contents: [{ uri: 'file:///x', text: 't' }] }, renamed);
    expect(read.contents[0].uri).toBe('b+file:///x');
  });
});
