// Adding an entry to the config's text: the cases the CLI tests do not reach (no servers list,
// a flow list, an empty file, a name under mcpServers, invalid YAML), each parsed back to check
// the entry landed where the loader will read it.

import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { AddServerError, addServer, hasServer, registryUrlIn } from '../../../src/config/add-server.js';

const entry = {
  entry: { name: 'demo', command: 'npx', args: ['-y', 'demo@1.0.0'], env: { TOKEN: '${TOKEN}' } },
  notes: { env: { TOKEN: 'An API token (secret)' }, headers: {}, vars: {} },
  comment: 'from the MCP Registry: x/demo 1.0.0',
};

describe('addServer', () => {
  it.each([
    ['an empty file', ''],
    ['a file without servers', '# only a comment\nlisten: { port: 0 }\n'],
    ['servers: with no value', 'servers:\n'],
    ['a flow list', 'servers: []  # none yet\n'],
  ])('adds to %s, as a block list the loader reads', (_, text) => {
    const after = addServer(text, entry, { update: false });
    expect(parse(after).servers).toEqual([entry.entry]);
    expect(after).toContain('# An API token (secret)\n');
    expect(after).toContain('# from the MCP Registry: x/demo 1.0.0');
    for (const line of text.split('\n').filter((l) => l.startsWith('#'))) expect(after).toContain(line);
  });

  it('appends after the last item, indented like the items already there', () => {
    const text = 'servers:\n    - name: a\n      command: a\nlisten: { port: 0 }\n';
    const after = addServer(text, entry, { update: false });
    expect(after.startsWith('servers:\n    - name: a\n      command: a\n\n    # from the MCP Registry')).toBe(true);
    expect(after.endsWith('listen: { port: 0 }\n')).toBe(true);
    expect(parse(after).servers.map((s: { name: string }) => s.name)).toEqual(['a', 'demo']);
  });

  it('refuses a name already present, in servers or mcpServers', () => {
    expect(() => addServer('servers:\n  - name: demo\n    command: x\n', entry, { update: false })).toThrow(/already in the config/);
    expect(() => addServer('mcpServers:\n  demo:\n    command: x\n', entry, { update: true })).toThrow(AddServerError);
    expect(hasServer('mcpServers:\n  demo:\n    command: x\n', 'demo')).toBe(true);
  });

  it('refuses a file that is not YAML, or not a mapping', () => {
    expect(() => addServer('servers: [\n', entry, { update: false })).toThrow(/not valid YAML/);
    expect(() => addServer('- a\n- b\n', entry, { update: false })).toThrow(/not a YAML mapping/);
  });

  it('reads registry.url without loading the file', () => {
    expect(registryUrlIn('registry: { url: "http://127.0.0.1:9/" }\nservers: [{ name: x, env: { A: "${UNSET}" } }]\n')).toBe('http://127.0.0.1:9/');
    expect(registryUrlIn('servers: []\n')).toBeUndefined();
  });
});

describe('addServer --update on flow-style entries', () => {
  const v2 = {
    entry: { name: 'demo', command: 'npx', args: ['-y', 'demo@2.0.0'], env: { TOKEN: '${TOKEN}', REGION: '${REGION}' } },
    notes: { env: { REGION: 'Region code (required)' }, headers: {}, vars: {} },
    comment: 'from the MCP Registry: x/demo 2.0.0',
  };
  const update = (text: string) => addServer(text, v2, { update: true });

  it('a flow map in a block list: one line again, its trailing comment and the other entries kept', () => {
    const text = `# head
servers:
  # ours
  - { name: demo, command: npx, args: [-y, "demo@1.0.0"], env: { TOKEN: abc }, description: mine }   # trailing
  - name: other
    command: node
`;
    const after = update(text);
    expect(after).toBe(`# head
servers:
  # ours
  # from the MCP Registry: x/demo 2.0.0
  - { name: demo, command: npx, args: [ -y, demo@2.0.0 ], env: { TOKEN: abc, REGION: "\${REGION}" }, description: mine }   # trailing
  - name: other
    command: node
`);
    // Again: our comment line is replaced, not stacked.
    expect(update(after)).toBe(after);
    expect(parse(after).servers[0]).toEqual({ name: 'demo', command: 'npx', args: ['-y', 'demo@2.0.0'], env: { TOKEN: 'abc', REGION: '${REGION}' }, description: 'mine' });
  });

  it('servers as a flow list over several lines: the item is replaced in place, brackets, commas and comments kept', () => {
    const text = `servers: [
  # first
  { name: demo, command: npx, args: [-y, "demo@1.0.0"] },  # mine
  { name: other, command: node }
]
listen: { port: 0 }   # keep
`;
    const after = update(text);
    expect(after).toBe(`servers: [
  # first
  # from the MCP Registry: x/demo 2.0.0
  { name: demo, command: npx, args: [ -y, demo@2.0.0 ], env: { TOKEN: "\${TOKEN}", REGION: "\${REGION}" } },  # mine
  { name: other, command: node }
]
listen: { port: 0 }   # keep
`);
    expect(parse(after).servers).toEqual([v2.entry, { name: 'other', command: 'node' }]);
    expect(update(after)).toBe(after);
  });

  it('servers as a flow list on one line: the item replaced, the line otherwise as it was (no room for a comment)', () => {
    const text = 'servers: [{ name: other, command: node }, { name: demo, command: npx, args: [-y, "demo@1.0.0"] }]  # flow\nlisten: { port: 0 }\n';
    const after = update(text);
    expect(after).toBe(
      'servers: [{ name: other, command: node }, { name: demo, command: npx, args: [ -y, demo@2.0.0 ], env: { TOKEN: "${TOKEN}", REGION: "${REGION}" } }]  # flow\nlisten: { port: 0 }\n',
    );
    expect(parse(after).servers[1]).toEqual(v2.entry);
  });

  it('a block entry keeps its flow-style args and env as flow (no comment breaks the env map)', () => {
    const text = 'servers:\n  - name: demo\n    command: npx\n    args: [-y, "demo@1.0.0"]\n    env: { TOKEN: abc }\n';
    const after = update(text);
    expect(after).toBe('servers:\n  # from the MCP Registry: x/demo 2.0.0\n  - name: demo\n    command: npx\n    args: [ -y, demo@2.0.0 ]\n    env: { TOKEN: abc, REGION: "${REGION}" }\n');
  });
});
