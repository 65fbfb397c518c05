// Config: client profiles, the stdio profile, sanitize, pinning, and glob validation.
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/config/load.js';
import { BASE, HOST_FILE_CASE, linesOf, parse } from './helpers.js';

describe('clients', () => {
  it('fills the defaults of a client profile', () => {
    const config = parse('clients: [{ name: ci, token: abc }]');
    expect(config.clients).toEqual([
      {
        name: 'ci',
        token: 'abc',
        tools: { allow: ['*'], deny: [] },
        prompts: { allow: ['*'], deny: [] },
        resources: { allow: ['*'], deny: [], fileCase: HOST_FILE_CASE },
        readOnly: false,
        operator: false,
        naming: { maxLength: 128 },
      },
    ]);
    expect(config.stdioClient).toBeUndefined();
    expect('stdioClient' in config).toBe(false);
  });

  it('maps every client key, with the list shorthand for filters', () => {
    const config = parse(
      `
clients:
  - name: ci-agent
    token: \${CI_AGENT_TOKEN}
    tools: { allow: ["github__*"], deny: ["*__delete_*"] }
    prompts: ["p__*"]
    resources: { deny: ["file:///secret/*"] }
    readOnly: \${RO}
    naming: { maxLength: 64 }
  - name: local
stdio: { client: local }
`,
      { CI_AGENT_TOKEN: 's3cr3t-Token_1', RO: 'true' },
    );
    expect(config.clients[0]).toEqual({
      name: 'ci-agent',
      token: 's3cr3t-Token_1',
      tools: { allow: ['github__*'], deny: ['*__delete_*'] },
      prompts: { allow: ['p__*'], deny: [] },
      resources: { allow: ['*'], deny: ['file:///secret/*'], fileCase: HOST_FILE_CASE },
      readOnly: true,
      operator: false,
      naming: { maxLength: 64 },
    });
    expect(config.clients[1]).not.toHaveProperty('token');
    expect(config.stdioClient).toBe('local');
  });

  it('accepts an empty or null clients key', () => {
    expect(parse('clients: []').clients).toEqual([]);
    expect(parse('clients:\n').clients).toEqual([]);
  });

  it.each([
    ['clients: [{ token: t }]', 'clients[0].name: required'],
    ['clients: [{ name: CI, token: t }]', 'clients[0].name: must be lowercase letters, digits and -'],
    ['clients: [{ name: a, token: "" }]', 'clients[0].token: must not be empty'],
    ['clients: [{ name: a, token: "has space" }]', 'clients[0].token: must be visible ASCII characters without spaces (it is sent in an HTTP header)'],
    ['clients: [{ name: a, token: 12345 }]', 'clients[0].token: expected a string, got a number (put it in quotes)'],
    ['clients: [{ name: a, token: t, readOnly: yes }]', 'clients[0].readOnly: expected true or false, got a string'],
    ['clients: [{ name: a, token: t, naming: { maxLength: 0 } }]', 'clients[0].naming.maxLength: must be at least 1'],
    ['clients: [{ name: a, token: t, naming: { maxLength: 129 } }]', 'clients[0].naming.maxLength: must be at most 128'],
    ['clients: [{ name: a, token: t, naming: { maxLenght: 64 } }]', 'clients[0].naming.maxLenght: unknown key (did you mean maxLength?)'],
    ['clients: [{ name: a, token: t, tols: [] }]', 'clients[0].tols: unknown key (did you mean tools?)'],
    ['clients: [{ name: a, token: t, readonly: true }]', 'clients[0].readonly: unknown key (did you mean readOnly?)'],
    ['clients: { a: 1 }', 'clients: expected a list, got a mapping'],
    ['clients: [{ name: a }]', 'clients[0]: has no token, so no HTTP request can select it: give it a token (or a match, with listen.auth), or serve it on stdio (stdio.client)'],
    ['stdio: { client: nobody }', 'stdio.client: names no configured client: it must be the name of an entry in clients'],
    ['stdio: { client: Bad }', 'stdio.client: must be lowercase letters, digits and -'],
    ['stdio: { clinet: a }', 'stdio.clinet: unknown key (did you mean client?)'],
  ])('%s → %s', (yaml, line) => {
    expect(linesOf(yaml)).toContain(line);
  });

  it('rejects duplicate names and shared tokens, naming the first owner but never the token', () => {
    const lines = linesOf(
      `
clients:
  - { name: a, token: "\${T1}" }
  - { name: a, token: other }
  - { name: c, token: "\${T2}" }
`,
      { T1: 'super-secret-value', T2: 'super-secret-value' },
    );
    expect(lines).toEqual(['clients[1].name: duplicate name (also used by clients[0])', 'clients[2].token: same token as clients[0]: each client needs its own token']);
    expect(lines.join('\n')).not.toContain('super-secret');
  });

  it('never quotes a token in any message', () => {
    const lines = linesOf('clients: [{ name: a, token: "bad token with spaces" }]');
    expect(lines.join('\n')).not.toContain('bad token');
  });

  it('reports an unset token variable as such', () => {
    expect(linesOf('clients: [{ name: a, token: "${CI_TOKEN}" }]')).toEqual(['clients[0].token: environment variable CI_TOKEN is not set']);
  });

  it('lets a tokenless profile be the stdio profile, and a token profile too', () => {
    expect(parse('clients: [{ name: local }]\nstdio: { client: local }').stdioClient).toBe('local');
    expect(parse('clients: [{ name: ci, token: t }]\nstdio: { client: ci }').stdioClient).toBe('ci');
  });
});

describe('sanitize and pinning', () => {
  it('fills the defaults', () => {
    const config = parse('servers: []');
    expect(config.sanitize).toEqual({ maxDescriptionLength: 1024, action: 'strip', results: false });
    expect(config.pinning).toEqual({ lockFile: `${BASE}/switchboard.lock`, newTools: 'allow' });
  });

  it('takes every key, resolving paths against the config folder', () => {
    const config = parse(`
sanitize: { maxDescriptionLength: 200, action: block, results: true, auditLog: logs/audit.jsonl }
pinning: { lockFile: ../locks/gw.lock, newTools: hold }
`);
    expect(config.sanitize).toEqual({
      maxDescriptionLength: 200,
      action: 'block',
      results: true,
      auditLog: `${BASE}/logs/audit.jsonl`,
    });
    expect(config.pinning).toEqual({ lockFile: '/srv/switchboard/locks/gw.lock', newTools: 'hold' });
    expect(parse('pinning: { lockFile: /var/lib/sb.lock }').pinning.lockFile).toBe('/var/lib/sb.lock');
  });

  it.each([
    ['sanitize: { maxDescriptionLength: 15 }', 'sanitize.maxDescriptionLength: must be at least 16'],
    ['sanitize: { maxDescriptionLength: 100.5 }', 'sanitize.maxDescriptionLength: expected an integer'],
    ['sanitize: { action: drop }', 'sanitize.action: must be one of warn, strip, block'],
    ['sanitize: { results: "true" }', 'sanitize.results: expected true or false, got a string (remove the quotes)'],
    ['sanitize: { auditLog: "" }', 'sanitize.auditLog: must not be empty'],
    ['sanitize: { maxLength: 10 }', 'sanitize.maxLength: unknown key'],
    ['pinning: { newTools: deny }', 'pinning.newTools: must be one of allow, hold'],
    ['pinning: { lockfile: x }', 'pinning.lockfile: unknown key (did you mean lockFile?)'],
    ['pinning: { lockFile: "" }', 'pinning.lockFile: must not be empty'],
  ])('%s → %s', (yaml, line) => {
    expect(linesOf(yaml)).toEqual([line]);
  });

  it('coerces substituted numbers and booleans', () => {
    const config = parse('sanitize: { maxDescriptionLength: "${MAX}", results: "${R}" }', { MAX: '300', R: 'true' });
    expect(config.sanitize).toMatchObject({ maxDescriptionLength: 300, results: true });
  });
});

describe('glob validation', () => {
  it('reports every invalid glob at its own path, in servers, mcpServers and clients', () => {
    const lines = linesOf(`
servers:
  - name: a
    command: x
    tools: ["ok_*", "bad[", "fine"]
    prompts: { allow: ["*"], deny: ["{unclosed"] }
    resources: { deny: ["file:///x/]"] }
mcpServers:
  b: { command: y, tools: { allow: ["[z"] } }
clients:
  - name: c
    token: t
    tools: { deny: ["*__[bad"] }
    prompts: ["ok", "x{"]
`);
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      'servers[0].tools[1]',
      'servers[0].prompts.deny[0]',
      'servers[0].resources.deny[0]',
      'mcpServers.b.tools.allow[0]',
      'clients[0].tools.deny[0]',
      'clients[0].prompts[1]',
    ]);
    for (const line of lines) expect(line).toMatch(/: is not a valid glob: /);
  });

  it('does not quote the glob (the path says which)', () => {
    const [line] = linesOf('servers: [{ name: a, command: x, tools: ["secret-ish["] }]');
    expect(line).not.toContain('secret-ish');
  });

  it('checks the globs of disabled servers too', () => {
    expect(linesOf('servers: [{ name: a, command: x, enabled: false, tools: ["["] }]')).toHaveLength(1);
  });

  it('accepts valid globs of every kind', () => {
    expect(() => parse('servers: [{ name: a, command: x, tools: ["*", "a?c", "[!x]*", "{a,b}_*", "\\\\[literal"] }]')).not.toThrow();
  });
});

describe('config/example.yaml', () => {
  it('configures clients, stdio, sanitize and pinning', async () => {
    const file = new URL('../../../config/example.yaml', import.meta.url).pathname;
    const config = await loadConfigFile(file, {});
    expect(config.clients.map((c) => c.name)).toEqual(['ci-agent', 'local']);
    expect(config.clients[0]).toMatchObject({ readOnly: true, naming: { maxLength: 64 } });
    expect(config.stdioClient).toBe('local');
    expect(config.sanitize.auditLog).toMatch(/^\/.*\/config\/switchboard-audit\.jsonl$/);
    expect(config.pinning.lockFile).toMatch(/^\/.*\/config\/switchboard\.lock$/);
  });
});
