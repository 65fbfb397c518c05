import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_PATH, loadConfigFile, parseConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/config/types.js';
import { BASE, HOST_FILE_CASE, parse, SERVER_DEFAULTS } from './helpers.js';

describe('defaults', () => {
  it('fills every default for a minimal stdio server', () => {
    const config = parse('servers:\n  - name: a\n    command: node\n');
    expect(config).toEqual({
      listen: { host: '127.0.0.1', port: 8808, path: '/mcp', allowedOrigins: [] },
      naming: { separator: '__', mode: 'always' },
      catalog: {
        pageSize: 100,
        mode: 'auto',
        tokenBudget: 10000,
        alwaysVisible: [],
        searchTool: 'search_tools',
        callTool: 'call_tool',
        listServersTool: 'list_servers',
        runCodeTool: 'run_code',
        directoryBudget: 1600,
        codeBudget: 4000,
      },
      codeMode: {
        maxRuns: 16,
        maxRunsPerPrincipal: 8,
        wallMs: 30_000,
        sliceMs: 100,
        memoryBytes: 64 * 1024 * 1024,
        stackBytes: 256 * 1024,
        maxCalls: 100,
        maxInFlight: 8,
        maxOutputTokens: 4000,
        maxLogLines: 100,
        maxLogChars: 16_000,
        maxCodeChars: 100_000,
      },
      limits: {
        maxMessageBytes: 16 * 1024 * 1024,
        shutdownGraceMs: 10_000,
        maxDepth: 512,
        maxCallsPerSession: 64,
        maxCallsPerServer: 256,
        sessionBytesInFlight: 32 * 1024 * 1024,
        totalBytesInFlight: 128 * 1024 * 1024,
        writeBufferBytes: 32 * 1024 * 1024,
        maxSessions: 1000,
        sessionIdleTimeoutMs: 3_600_000,
        streamlessSessionIdleTimeoutMs: 300_000,
        maxSubscriptionsPerSession: 1000,
        maxSubscriptions: 10_000,
        maxIsolatedConnections: 32,
        maxConnections: 512,
        requestTimeoutMs: 30_000,
        startupWaitMs: 5_000,
        perPrincipal: { sessions: 100, streams: 100, connections: 128, callsInFlight: 128, bytesInFlight: 64 * 1024 * 1024, unauthenticatedConnections: 32 },
        headersGraceMs: 1_000,
        maxListItems: 20_000,
        maxListBytes: 32 * 1024 * 1024,
        listFetchTimeoutMs: 60_000,
        listRefetchIntervalMs: 1000,
        listRefetchMaxIntervalMs: 30_000,
      },
      servers: [
        {
          kind: 'stdio',
          name: 'a',
          prefix: 'a',
          ...SERVER_DEFAULTS,
          command: 'node',
          args: [],
          env: {},
          inheritEnv: false,
          cwd: BASE,
        },
      ],
      clients: [],
      sanitize: { maxDescriptionLength: 1024, action: 'strip', results: false },
      pinning: { lockFile: `${BASE}/switchboard.lock`, newTools: 'allow' },
      state: { maxEvents: 1000, maxEventBytes: 65536, heartbeatMs: 5000 },
      credentials: { linkTtlMs: 600_000, localUser: 'local', connections: { perUser: 16, total: 256, idleTimeoutMs: 600_000 } },
    });
  });

  it('fills the defaults of an HTTP server', () => {
    const [server] = parse('servers: [{ name: r, url: "https://example.com/mcp" }]').servers;
    expect(server).toEqual({
      kind: 'http',
      name: 'r',
      prefix: 'r',
      ...SERVER_DEFAULTS,
      url: 'https://example.com/mcp',
      transport: 'auto',
      headers: {},
    });
  });

  it('accepts zero servers, an empty servers list and a null servers key', () => {
    expect(parse('listen: { port: 0 }').servers).toEqual([]);
    expect(parse('servers: []').servers).toEqual([]);
    expect(parse('servers:\n# - name: a\n').servers).toEqual([]);
    expect(parse('listen: { port: 0 }').listen.port).toBe(0);
  });

  it('takes every top-level setting as written', () => {
    const config = parse(`
listen: { host: 0.0.0.0, port: 9000, path: /gw, allowedOrigins: ["https://app.example.com", "http://localhost:3000"] }
naming: { separator: ".", mode: on-conflict }
catalog: { pageSize: 7 }
limits: { maxMessageBytes: 512KiB }
`);
    expect(config.listen).toEqual({
      host: '0.0.0.0',
      port: 9000,
      path: '/gw',
      allowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
    });
    expect(config.naming).toEqual({ separator: '.', mode: 'on-conflict' });
    expect(config.catalog.pageSize).toBe(7);
    expect(config.limits.maxMessageBytes).toBe(512 * 1024);
  });
});

describe('servers', () => {
  it('maps every server key', () => {
    const config = parse(`
servers:
  - name: remote
    url: http://127.0.0.1:3001/mcp
    transport: sse
    headers: { Authorization: "Bearer x" }
    prefix: rem
    tools: { allow: ["*"], deny: ["delete_*"] }
    prompts: ["p1", "p*"]
    resources: { deny: ["file:///secret/*"] }
    timeout: 2m
    enabled: false
`);
    expect(config.servers[0]).toMatchObject({
      kind: 'http',
      transport: 'sse',
      headers: { Authorization: 'Bearer x' },
      prefix: 'rem',
      tools: { allow: ['*'], deny: ['delete_*'] },
      prompts: { allow: ['p1', 'p*'], deny: [] },
      resources: { allow: ['*'], deny: ['file:///secret/*'], fileCase: HOST_FILE_CASE },
      timeoutMs: 120_000,
      enabled: false,
    });
  });

  it('allows an empty prefix, also on several servers', () => {
    const config = parse(`
servers:
  - { name: a, command: x, prefix: "" }
  - { name: b, command: y, prefix: "" }
`);
    expect(config.servers.map((s) => s.prefix)).toEqual(['', '']);
  });

  it('allows a duplicate prefix when one of the servers is disabled', () => {
    const config = parse(`
servers:
  - { name: a, command: x, prefix: p }
  - { name: b, command: y, prefix: p, enabled: false }
`);
    expect(config.servers).toHaveLength(2);
  });

  it('keeps the command as written (no PATH lookup, no resolution)', () => {
    expect(parse('servers: [{ name: a, command: ./bin/server }]').servers[0]).toMatchObject({ command: './bin/server' });
  });
});

describe('relative cwd', () => {
  it.each([
    ['.', BASE],
    ['sub/dir', `${BASE}/sub/dir`],
    ['../data', '/srv/switchboard/data'],
    ['/abs/path', '/abs/path'],
  ])('resolves %s against the config folder, not process.cwd()', (cwd, expected) => {
    const [server] = parse(`servers: [{ name: a, command: x, cwd: "${cwd}" }]`).servers;
    expect(server).toMatchObject({ cwd: expected });
  });

  it('makes a relative baseDir absolute', () => {
    const config = parseConfig('servers: [{ name: a, command: x }]', { baseDir: 'rel', env: {} });
    expect(config.servers[0]).toMatchObject({ cwd: join(process.cwd(), 'rel') });
  });
});

describe('loadConfigFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves cwd against the file folder and names the file in errors', async () => {
    const file = join(dir, 'gw.yaml');
    await writeFile(file, 'servers: [{ name: a, command: x, cwd: data }]\n');
    const config = await loadConfigFile(file, {});
    expect(config.servers[0]).toMatchObject({ cwd: join(dir, 'data') });

    await writeFile(file, 'servers: [{ name: a }]\n');
    await expect(loadConfigFile(file, {})).rejects.toThrow(`invalid config ${file}:`);
  });

  it('reads JSON (the Claude Desktop file as is)', async () => {
    const file = join(dir, 'claude_desktop_config.json');
    await writeFile(file, JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'x'] } } }, null, 2));
    const config = await loadConfigFile(file, {});
    expect(config.servers.map((s) => s.name)).toEqual(['fs']);
  });

  it('reports a missing file clearly', async () => {
    const missing = join(dir, 'nope.yaml');
    const err = await loadConfigFile(missing, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([{ path: '', message: `file not found: ${missing}` }]);
  });

  it('reports a folder given as the file', async () => {
    const err = await loadConfigFile(dir, {}).catch((e: unknown) => e);
    expect((err as ConfigError).problems).toEqual([{ path: '', message: `${dir} is a folder, not a file` }]);
  });

  it('has the documented default path', () => {
    expect(DEFAULT_CONFIG_PATH).toBe('config/switchboard.yaml');
  });
});
