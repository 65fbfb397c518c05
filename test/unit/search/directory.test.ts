// The server directory's lines (search/directory.ts): what a server is for comes from the
// operator, then from what the server says of itself, then from its tools; one line per server,
// `- name (N tools): purpose`, cut to a sentence of at most PURPOSE_WORDS words.
import { describe, expect, it } from 'vitest';
import { directoryLines, directoryText, PURPOSE_WORDS, type DirectoryServer } from '../../../src/search/directory.js';

const tools = (...names: string[]) => names.map((name) => ({ name }));
const line = (s: DirectoryServer, others: DirectoryServer[] = []) => directoryLines([s, ...others])[0]!;

describe('directoryLines', () => {
  it('takes the operator’s description first, whatever the server says', () => {
    const l = line({ name: 'gh', description: 'Our GitHub org. Issues and code.', serverDescription: 'A server for GitHub things', tools: tools('a', 'b') });
    expect([l.purpose, l.from, l.tools]).toEqual(['Our GitHub org', 'config', 2]);
  });

  it('then the server’s description, without the opening every server shares', () => {
    const l = line({ name: 'pay', serverDescription: 'An MCP server that provides access to invoices, refunds and payouts.', tools: tools('a') });
    expect([l.purpose, l.from]).toEqual(['Invoices, refunds and payouts', 'server']);
  });

  it('then a first sentence of the instructions that says what the server is, not how to use it', () => {
    const says = line({ name: 'kb', instructions: 'Searchable company knowledge base of policies and runbooks.\n\nUse search first.', tools: tools('a') });
    expect([says.purpose, says.from]).toEqual(['Searchable company knowledge base of policies and runbooks', 'instructions']);
    const rules = line({ name: 'kb', instructions: 'Use query_docs before answering.', tools: tools('query_docs', 'b', 'c', 'd') });
    expect(rules.from).toBe('tools');
    const heading = line({ name: 'kb', instructions: '# Knowledge base\nStuff.', tools: tools('a') });
    expect(heading.from).toBe('tools');
  });

  it('then a title that says more than the name', () => {
    expect(line({ name: 'github', title: 'GitHub MCP Server', tools: tools('a') }).from).toBe('tools');
    const l = line({ name: 'gcal', title: 'Google Calendar events and invitations', tools: tools('a') });
    expect([l.purpose, l.from]).toEqual(['Google Calendar events and invitations', 'title']);
  });

  it('else names the tools of a small server, and the words that set a larger one’s apart', () => {
    expect(line({ name: 'kv', tools: tools('get_key', 'set_key') }).purpose).toBe('get_key, set_key');
    const a: DirectoryServer = { name: 'mail', tools: tools('list_messages', 'send_message', 'delete_message', 'list_labels', 'create_label') };
    const b: DirectoryServer = { name: 'cal', tools: tools('list_events', 'create_event', 'delete_event', 'list_calendars') };
    const [mail, cal] = directoryLines([a, b]);
    // Verbs both servers have (list, create, delete) say less than their own nouns.
    expect(mail!.purpose).toMatch(/^Tools for (message|label)/);
    expect(cal!.purpose).toMatch(/^Tools for (event|calendars?)/);
    expect(mail!.purpose.split(', ').length).toBeLessThanOrEqual(7);
  });

  it('cuts a long purpose to its first sentence of at most PURPOSE_WORDS words, marking the cut', () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const l = line({ name: 's', description: words, tools: tools('a') });
    expect(l.purpose.split(' ')).toHaveLength(PURPOSE_WORDS);
    expect(l.purpose.endsWith('…')).toBe(true);
    expect(line({ name: 's', description: 'Handles e.g. invoices. Then more.', tools: tools('a') }).purpose).toBe('Handles e.g. invoices');
  });

  it('writes one line per server, in the order given, with singular and plural counts', () => {
    const text = directoryText(
      directoryLines([
        { name: 'one', description: 'First', tools: tools('a') },
        { name: 'two', description: 'Second', tools: tools('a', 'b') },
      ]),
    );
    expect(text).toBe('- one (1 tool): First\n- two (2 tools): Second');
  });
});
