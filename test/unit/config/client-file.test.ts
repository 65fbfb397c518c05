// A whole claude_desktop_config.json (or Cursor's mcp.json) works as the config: its servers are
// read, the application's own settings left alone; a gateway config stays strict. And which file
// a command reads without -c.

import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, defaultConfigPath, parseConfig } from '../../../src/config/load.js';
import { BASE, problemsOf } from './helpers.js';

/** As Claude Desktop writes it: its own settings beside mcpServers. */
const CLAUDE_DESKTOP = JSON.stringify(
  {
    globalShortcut: 'Alt+Space',
    preferences: { quickEntryShortcut: 'off', menuBarEnabled: false, theme: '${not a variable}' },
    mcpServers: {
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${GH}' } },
    },
    isUsingBuiltInNodeForMcp: true,
  },
  null,
  2,
);

function parse(text: string, env: NodeJS.ProcessEnv = {}) {
  const notes: string[] = [];
  const config = parseConfig(text, { file: 'claude_desktop_config.json', baseDir: BASE, env, onNote: (n) => notes.push(n) });
  return { config, notes };
}

describe("a client application's config file", () => {
  it('reads the servers of a whole claude_desktop_config.json and says what it left alone', () => {
    const { config, notes } = parse(CLAUDE_DESKTOP, { GH: 'gh-token' });
    expect(config.servers.map((s) => s.name)).toEqual(['memory', 'github']);
    expect(config.servers[1]).toMatchObject({ env: { GITHUB_TOKEN: 'gh-token' } });
    expect(notes).toEqual(["claude_desktop_config.json is an MCP client's config file: reading its mcpServers, ignoring globalShortcut, preferences, isUsingBuiltInNodeForMcp"]);
  });

  it('checks the servers as strictly as ever', () => {
    const text = JSON.stringify({ preferences: {}, mcpServers: { bad: { comand: 'node' } } });
    expect(problemsOf(text).map((p) => p.path)).toContain('mcpServers.bad.comand');
  });

  it('stays strict for a gateway config: YAML, or JSON with any gateway key', () => {
    expect(problemsOf('globalShortcut: x\nmcpServers: {}\n')).toEqual([expect.objectContaining({ path: 'globalShortcut' })]);
    expect(problemsOf(JSON.stringify({ listen: { port: 1 }, globalShortcut: 'x', mcpServers: {} }))).toEqual([expect.objectContaining({ path: 'globalShortcut' })]);
  });

  it('reads a file with only mcpServers as before, without a note', () => {
    const { config, notes } = parse(JSON.stringify({ mcpServers: { memory: { command: 'node' } } }));
    expect(config.servers).toHaveLength(1);
    expect(notes).toEqual([]);
  });
});

describe('defaultConfigPath', () => {
  it('is $SWITCHBOARD_CONFIG when set', () => {
    expect(defaultConfigPath('file:///opt/sb/dist/main.js', { SWITCHBOARD_CONFIG: '/etc/switchboard.yaml' })).toBe('/etc/switchboard.yaml');
  });

  it("is else the package's own config, found from the entry point, not from the working folder", () => {
    expect(defaultConfigPath('file:///usr/lib/node_modules/mcp-switchboard/dist/main.js', {})).toBe('/usr/lib/node_modules/mcp-switchboard/config/switchboard.yaml');
    expect(defaultConfigPath('file:///opt/sb/dist/main.js', { SWITCHBOARD_CONFIG: ' ' })).toBe(`/opt/sb/${DEFAULT_CONFIG_PATH}`);
  });
});
