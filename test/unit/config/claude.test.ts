import { describe, expect, it } from 'vitest';
import { BASE, linesOf, parse, SERVER_DEFAULTS } from './helpers.js';

describe('Claude Desktop shape (mcpServers)', () => {
  it('reads a pasted claude_desktop_config.json', () => {
    const config = parse(
      JSON.stringify({
        mcpServers: {
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${GH}' } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        },
      }),
      { GH: 'gh-token', API_TOKEN: 'api-token' },
    );
    expect(config.servers).toEqual([
      {
        kind: 'stdio',
        name: 'github',
        prefix: 'github',
        ...SERVER_DEFAULTS,
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_TOKEN: 'gh-token' },
        inheritEnv: false,
        cwd: BASE,
      },
      {
        kind: 'http',
        name: 'remote',
        prefix: 'remote',
        ...SERVER_DEFAULTS,
        url: 'https://mcp.example.com/mcp',
        transport: 'auto',
        headers: { Authorization: 'Bearer api-token' },
      },
    ]);
  });

  it.each([
    ['sse', 'sse'],
    ['http', 'streamable-http'],
    ['streamable-http', 'streamable-http'],
  ])('maps type %s to transport %s', (type, transport) => {
    const [server] = parse(`mcpServers: { r: { type: ${type}, url: "http://h/mcp" } }`).servers;
    expect(server).toMatchObject({ kind: 'http', transport });
  });

  it('accepts type stdio with a command, and disabled', () => {
    const [server] = parse('mcpServers: { s: { type: stdio, command: node, disabled: true } }').servers;
    expect(server).toMatchObject({ kind: 'stdio', enabled: false });
    const [on] = parse('mcpServers: { s: { command: node, disabled: false } }').servers;
    expect(on).toMatchObject({ enabled: true });
  });

  it('accepts the gateway keys too (prefix, filters, timeout, enabled)', () => {
    const [server] = parse('mcpServers: { s: { command: node, prefix: x, tools: [a], timeout: 5s, enabled: false } }').servers;
    expect(server).toMatchObject({ prefix: 'x', tools: { allow: ['a'], deny: [] }, timeoutMs: 5000, enabled: false });
  });

  it('normalizes keys that are not valid names', () => {
    const config = parse('mcpServers: { My_Server: { command: a }, GitHub: { command: b }, "files.local": { command: c } }');
    expect(config.servers.map((s) => [s.name, s.prefix])).toEqual([
      ['my-server', 'my-server'],
      ['github', 'github'],
      ['files-local', 'files-local'],
    ]);
  });

  it('reports a normalized key that collides with a name', () => {
    expect(linesOf('servers: [{ name: my-server, command: a }]\nmcpServers: { My_Server: { command: b } }')).toEqual([
      'mcpServers.My_Server: would become the name "my-server", which servers[0] already uses; rename it',
    ]);
  });

  it('reports normalized keys that collide with each other, each of them', () => {
    expect(linesOf('mcpServers: { My_Server: { command: a }, "my.server": { command: b } }')).toEqual([
      'mcpServers.My_Server: would become the name "my-server", as would mcpServers["my.server"]; rename one',
      'mcpServers["my.server"]: would become the name "my-server", as would mcpServers.My_Server; rename one',
    ]);
  });

  it('reports a key that cannot become a name', () => {
    expect(linesOf(`mcpServers: { "${'X'.repeat(65)}": { command: a } }`)).toEqual([`mcpServers.${'X'.repeat(65)}: cannot be turned into a server name: use 1 to 64 lowercase letters, digits and -`]);
    expect(linesOf('mcpServers: { "": { command: a } }')).toEqual(['mcpServers[""]: cannot be turned into a server name: use 1 to 64 lowercase letters, digits and -']);
  });

  it('mixes with servers and the other top-level keys', () => {
    const config = parse(`
listen: { port: 9999 }
naming: { separator: "." }
servers: [{ name: a, command: x }]
mcpServers: { b: { command: y } }
`);
    expect(config.listen.port).toBe(9999);
    expect(config.naming.separator).toBe('.');
    expect(config.servers.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('requires names to be unique across servers and mcpServers', () => {
    expect(linesOf('servers: [{ name: a, command: x }]\nmcpServers: { a: { command: y } }')).toEqual(['mcpServers.a: duplicate name (also used by servers[0])']);
  });

  it('requires prefixes to be unique across both shapes', () => {
    expect(linesOf('servers: [{ name: a, command: x }]\nmcpServers: { b: { command: y, prefix: a } }')).toEqual([
      'mcpServers.b.prefix: same prefix as servers[0]; prefixes of enabled servers must be unique',
    ]);
  });

  it.each([
    ['mcpServers: { g: { command: 1 } }', 'mcpServers.g.command: expected a string, got a number (put it in quotes)'],
    ['mcpServers: { g: { comand: x } }', 'mcpServers.g.comand: unknown key (did you mean command?)'],
    ['mcpServers: { g: { command: x, name: g } }', 'mcpServers.g.name: unknown key (under mcpServers, the key of the entry is its name)'],
    ['mcpServers: { g: { url: "http://h/", type: websocket } }', 'mcpServers.g.type: must be one of stdio, http, streamable-http, sse'],
    ['mcpServers: { g: { url: "http://h/", type: stdio } }', 'mcpServers.g.type: is stdio, but the server has a url'],
    ['mcpServers: { g: { command: x, type: sse } }', 'mcpServers.g.type: is sse, but the server has a command'],
    ['mcpServers: { g: { url: "http://h/", type: sse, transport: streamable-http } }', 'mcpServers.g.transport: contradicts type sse'],
    ['mcpServers: { g: { command: x, enabled: true, disabled: true } }', 'mcpServers.g.disabled: contradicts enabled'],
    ['mcpServers: { g: { command: x, disabled: "yes" } }', 'mcpServers.g.disabled: expected true or false, got a string'],
    ['mcpServers: { g: {} }', 'mcpServers.g: needs either command (a stdio server) or url (an HTTP server)'],
    ['mcpServers: { g: x }', 'mcpServers.g: expected a mapping, got a string'],
    ['mcpServers: [{ command: x }]', 'mcpServers: expected a mapping, got a list'],
    ['mcpServers: { "a.b": { command: x, args: [1] } }', 'mcpServers["a.b"].args[0]: expected a string, got a number (put it in quotes)'],
  ])('%s', (yaml, expected) => {
    expect(linesOf(yaml)).toEqual([expected]);
  });

  it('accepts type and transport when they agree', () => {
    const [server] = parse('mcpServers: { g: { url: "http://h/", type: http, transport: streamable-http } }').servers;
    expect(server).toMatchObject({ transport: 'streamable-http' });
  });
});
