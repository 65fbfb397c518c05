// Each default is set once, in the schema: these tests fail when the JSON Schema's descriptions,
// docs/configuration.md or the loaded config say otherwise.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DURATION_PATTERN, MAX_DURATION_MS, MAX_SIZE_BYTES, SIZE_PATTERN, parseDuration, parseSize } from '../../../src/config/duration.js';
import { BASE, parse } from './helpers.js';
import { jsonSchema, properties, propertyAt, type JsonSchema } from './json-schema.js';

/** `60s` → "60s", `8808` → 8808, `["*"]` → ["*"], `"__"` → "__". */
const literal = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

describe('the JSON Schema', () => {
  it('shows a default for every key but those whose absence means something of its own', () => {
    const without = properties(jsonSchema)
      .filter(([, node]) => node.default === undefined)
      .map(([path]) => path);
    expect(new Set(without)).toEqual(
      new Set([
        '.$schema',
        '.listen.allowedHosts', // the loopback names and the listen host
        '.listen.stateKey', // a random key per process
        '.limits.perPrincipal.bytesInFlight', // half of totalBytesInFlight
        '.servers.name',
        '.servers.command', // command or url: the kind of server
        '.servers.url',
        '.servers.prefix', // the name
        '.servers.description', // what the server says of itself, else its tools' words
        '.mcpServers.command',
        '.mcpServers.url',
        '.mcpServers.prefix',
        '.mcpServers.description',
        '.mcpServers.type', // the transport's own default
        '.clients.name',
        '.clients.token', // a profile only stdio can serve
        '.clients.roots', // the top-level roots
        '.roots', // none: an empty list when no client can answer roots/list
        '.stdio', // the whole catalog
        '.stdio.client',
        '.sanitize.auditLog', // the log
        '.catalog.embeddings', // lexical ranking only
        '.catalog.embeddings.url',
        '.catalog.embeddings.model',
        '.catalog.embeddings.cacheDir', // no disk cache
        '.clients.catalog', // the catalog section's settings
        '.clients.catalog.mode',
        '.clients.catalog.tokenBudget',
        '.clients.catalog.alwaysVisible',
        '.clients.catalog.directoryBudget',
        '.clients.catalog.codeBudget',
        // OAuth: absent means no OAuth on that side, or the value the provider's metadata gives.
        '.listen.auth', // static tokens only
        '.listen.auth.issuer',
        '.listen.auth.resource', // the URL the gateway listens on
        '.listen.auth.audience', // the resource
        '.listen.auth.jwksUrl', // the issuer's metadata
        '.listen.auth.scopesSupported', // requiredScopes
        '.listen.auth.introspection', // JWTs only
        '.listen.auth.introspection.url',
        '.listen.auth.introspection.clientId',
        '.listen.auth.introspection.clientSecret',
        ...['servers', 'mcpServers'].flatMap((s) =>
          // OAuth only on a 401; the registration, scopes and grant the server's metadata leads to
          ['', '.type', '.clientId', '.clientSecret', '.clientMetadataUrl', '.scopes', '.grant', '.redirectPort', '.tokenFile', '.perUser'].map((k) => `.${s}.auth${k}`),
        ),
        // Per-user secrets: absent means each is asked for by its name.
        '.servers.userSecrets',
        '.mcpServers.userSecrets',
        // Per-user credentials: the state layer's default paths, the HTTP face's address, no connect-page login.
        '.credentials.file',
        // TLS to Redis: the system's CAs and no client certificate.
        '.state.tls',
        '.state.tls.ca',
        '.state.tls.cert',
        '.state.tls.key',
        '.credentials.keyFile',
        '.credentials.publicUrl',
        '.credentials.login',
        '.credentials.login.clientId',
        '.credentials.login.clientSecret',
        // A server's own list bounds: absent means the limits.* ones.
        ...['servers', 'mcpServers'].flatMap((s) => ['', '.maxItems', '.maxBytes', '.fetchTimeout'].map((k) => `.${s}.listLimits${k}`)),
        '.state.redis', // in memory
        // Only the registry commands read it: absent means the official registry.
        '.registry',
        '.registry.url',
        '.state.keyPrefix', // none: keys start sb:
        '.clients.match', // token only
        '.clients.match.scope',
        '.clients.match.sub',
        '.clients.match.group',
      ]),
    );
  });
});

describe('defaults stated in the JSON Schema descriptions', () => {
  // "(default 60s)" states a value; "auto (default)" and "strip (default: ...)" mark an enum value;
  // "(default: the name)" describes what happens without a value, so the key must have none.
  const claim = /(\S+) \(default(?:\)|: [^)]*\)| ([^)]*)\))/g;
  const described = properties(jsonSchema).filter(([, s]) => s.description?.includes('(default'));

  it('finds the stated defaults', () => {
    expect(described.length).toBeGreaterThan(40);
  });

  it.each(described)('%s says what the schema sets', (_path, node) => {
    const text = node.description!;
    const claims = [...text.matchAll(claim)];
    expect(claims.length, 'every "(default" is one of the forms above').toBe(text.split('(default').length - 1);
    for (const [, word, value] of claims) {
      if (value !== undefined) expect(literal(value)).toEqual(node.default);
      else if (node.enum?.includes(word)) expect(node.default).toBe(word);
      else expect(node.default, 'a key described without a value has no default').toBeUndefined();
    }
  });
});

describe('defaults in the tables of docs/configuration.md', () => {
  const docs = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
  /** Which schema object each section's tables describe. */
  const sections: Record<string, string> = {
    'Top level': '',
    '`listen`': '.listen',
    '`naming`': '.naming',
    '`catalog`': '.catalog',
    '`limits`': '.limits',
    '`codeMode`': '.codeMode',
    Servers: '.servers',
    Filters: '.servers.tools',
    'Resource filters': '.servers.resources',
    Clients: '.clients',
    '`stdio`': '.stdio',
    '`sanitize`': '.sanitize',
    '`pinning`': '.pinning',
    '`state`': '.state',
    '`credentials`': '.credentials',
    '`registry`': '.registry',
  };
  type Row = { section: string; key: string; cell: string; meaning: string };
  const rows: Row[] = [];
  let section = '';
  let column = -1;
  for (const line of docs.split('\n')) {
    const heading = /^#{2,3} (.+)$/.exec(line);
    if (heading) [section, column] = [heading[1]!, -1];
    if (!line.startsWith('|')) continue;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells[0] === 'Key') column = cells.indexOf('Default');
    const key = /^`([^`]+)`$/.exec(cells[0]!)?.[1];
    if (key && column >= 0) rows.push({ section, key, cell: cells[column]!, meaning: cells.at(-1)! });
  }

  it('finds every table', () => {
    expect(new Set(rows.map((r) => r.section))).toEqual(new Set(Object.keys(sections)));
    expect(rows.length).toBeGreaterThan(60);
  });

  it.each(rows)('$section: $key', ({ section, key, cell, meaning }) => {
    const path = `${sections[section]}.${key}`;
    const node = propertyAt.get(path);
    expect(node, `${path} is in the schema`).toBeDefined();
    // `16MiB` (16777216): the value, and what it is in other words.
    const value = /^`([^`]*)`(?: \(.*\))?$/.exec(cell)?.[1];
    if (value !== undefined) expect(literal(value), 'the documented default is the schema default').toEqual(node!.default);
    else if (node!.default !== undefined) {
      // A mapping's defaults are those of its keys, documented with them ("see below", "everything").
      expect(node!.default, `the table gives no default for ${path}`).toEqual({});
    }
    // Keys of a mapping row stated in its meaning: "`initialDelay` (default `500ms`)".
    const inline = [...meaning.matchAll(/`(\w+)`[^`()]*\(default `?([^`)]+?)`?\)/g)];
    expect(inline.length, 'every "(default" in the meaning names its key').toBe(meaning.split('(default').length - 1);
    for (const [, inner, stated] of inline) expect(literal(stated!), `${path}.${inner}`).toEqual(propertyAt.get(`${path}.${inner}`)?.default);
  });
});

// The loaded config must hold what the file says, else what the JSON Schema says the default is.

/** Keys whose name in GatewayConfig says their unit. */
const RENAMED: Record<string, string> = {
  shutdownGrace: 'shutdownGraceMs',
  writeBuffer: 'writeBufferBytes',
  sessionIdleTimeout: 'sessionIdleTimeoutMs',
  streamlessSessionIdleTimeout: 'streamlessSessionIdleTimeoutMs',
  requestTimeout: 'requestTimeoutMs',
  startupWait: 'startupWaitMs',
  headersGrace: 'headersGraceMs',
  listFetchTimeout: 'listFetchTimeoutMs',
  listRefetchInterval: 'listRefetchIntervalMs',
  listRefetchMaxInterval: 'listRefetchMaxIntervalMs',
  timeout: 'timeoutMs',
  startupTimeout: 'startupTimeoutMs',
  downtimeGrace: 'downtimeGraceMs',
  initialDelay: 'initialDelayMs',
  maxDelay: 'maxDelayMs',
  heartbeat: 'heartbeatMs',
  linkTtl: 'linkTtlMs',
  idleTimeout: 'idleTimeoutMs',
};

/** Old spellings the loader still accepts, as it reads them (`protocol: legacy` is `stateful`). */
const RESPELLED: Record<string, Record<string, unknown>> = { protocol: { legacy: 'stateful' } };

type Kind = 'duration' | 'size' | 'other';
const kindOf = (node: JsonSchema): Kind => {
  const text = JSON.stringify(node);
  return text.includes(JSON.stringify(DURATION_PATTERN)) ? 'duration' : text.includes(JSON.stringify(SIZE_PATTERN)) ? 'size' : 'other';
};
/** A value as written → as loaded. */
const loaded = (node: JsonSchema, value: unknown): unknown => (kindOf(node) === 'duration' ? parseDuration(value as string) : kindOf(node) === 'size' ? parseSize(value as string) : value);

/** Valid values for a scalar key, in every way the file may write them. */
function valuesFor(node: JsonSchema): fc.Arbitrary<unknown> {
  const kind = kindOf(node);
  if (kind === 'duration') {
    return fc.oneof(
      fc.integer({ min: 1, max: MAX_DURATION_MS }),
      fc.tuple(fc.integer({ min: 1, max: 9999 }), fc.constantFrom('ms', 's', 'm')).map(([n, u]) => `${n}${u}`),
    );
  }
  if (kind === 'size') {
    return fc.oneof(
      fc.integer({ min: 1, max: MAX_SIZE_BYTES }),
      fc.integer({ min: 1, max: 1024 * 1024 }).map((n) => `${n}KiB`),
    );
  }
  if (node.enum) return fc.constantFrom(...node.enum);
  const scalar = node.anyOf?.[0] ?? node;
  if (scalar.type === 'boolean') return fc.boolean();
  if (scalar.type === 'integer') return fc.integer({ min: scalar.minimum ?? 0, max: scalar.maximum ?? 100_000 });
  throw new Error(`no values for ${JSON.stringify(node)}`);
}

/** A random subset of `keys` (under the schema object at `path`), each with a valid value. */
const someOf = (path: string, keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, valuesFor(propertyAt.get(`${path}.${k}`)!)])), { requiredKeys: [] });

/** Checks every key of `keys` in `actual`: the value given, or the schema's default. */
function expectGivenOrDefault(path: string, keys: string[], given: Record<string, unknown>, actual: Record<string, unknown>) {
  for (const key of keys) {
    const node = propertyAt.get(`${path}.${key}`)!;
    const value = key in given ? given[key] : node.default;
    const expected = loaded(node, RESPELLED[key]?.[value as string] ?? value);
    expect(actual[RENAMED[key] ?? key], `${path}.${key}`).toEqual(expected);
  }
}

describe('the loaded config', () => {
  /** The keys right under `path` with a scalar default, but for strings with a pattern of their own (tested below). */
  const scalarKeys = (path: string) =>
    [...propertyAt]
      .filter(([p, node]) => p.startsWith(`${path}.`) && !p.slice(path.length + 1).includes('.') && node.default !== undefined && typeof node.default !== 'object')
      .map(([p]) => p.slice(path.length + 1))
      .filter((key) => !['host', 'path', 'separator', 'lockFile', 'cwd', 'searchTool', 'callTool', 'listServersTool', 'runCodeTool'].includes(key));

  it.each(['listen', 'naming', 'catalog', 'limits', 'sanitize', 'pinning', 'state'])('%s: the value in the file, else the schema default', (section) => {
    const keys = scalarKeys(`.${section}`);
    expect(keys.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(someOf(`.${section}`, keys), (given) => {
        const config = parse(JSON.stringify({ [section]: given })) as unknown as Record<string, Record<string, unknown>>;
        expectGivenOrDefault(`.${section}`, keys, given, config[section]!);
      }),
      { numRuns: 40 },
    );
  });

  it('servers of both shapes and kinds: the value in the file, else the schema default', () => {
    const common = scalarKeys('.servers').filter((k) => !['transport', 'inheritEnv'].includes(k));
    const reconnect = scalarKeys('.servers.reconnect');
    const server = fc.record({
      claude: fc.boolean(),
      kind: fc.constantFrom('stdio', 'http'),
      given: someOf('.servers', common),
      reconnect: fc.option(someOf('.servers.reconnect', reconnect), { nil: undefined }),
      own: fc.oneof(someOf('.servers', ['inheritEnv']), someOf('.servers', ['transport'])),
    });
    fc.assert(
      fc.property(server, ({ claude, kind, given, reconnect: backoff, own }) => {
        const ownKey = kind === 'stdio' ? 'inheritEnv' : 'transport';
        const ownGiven = Object.hasOwn(own, ownKey) ? own : {};
        const entry = { ...(kind === 'stdio' ? { command: 'x' } : { url: 'http://h/mcp' }), ...given, ...ownGiven, ...(backoff ? { reconnect: backoff } : {}) };
        const file = claude ? { mcpServers: { s: entry } } : { servers: [{ name: 's', ...entry }] };
        const [loadedServer] = parse(JSON.stringify(file)).servers as unknown as Record<string, Record<string, unknown>>[];
        expectGivenOrDefault('.servers', common, given, loadedServer!);
        expectGivenOrDefault('.servers', [ownKey], ownGiven, loadedServer!);
        expectGivenOrDefault('.servers.reconnect', reconnect, backoff ?? {}, loadedServer!.reconnect!);
      }),
      { numRuns: 60 },
    );
  });

  it("resolves the default paths against the file's folder", () => {
    const config = parse('servers: [{ name: s, command: x }]');
    expect(config.pinning.lockFile).toBe(`${BASE}/${propertyAt.get('.pinning.lockFile')!.default}`);
    expect(config.servers[0]).toMatchObject({ cwd: BASE });
    expect(propertyAt.get('.servers.cwd')!.default).toBe('.');
  });

  it('takes the default host, path and separator from the schema', () => {
    const config = parse('servers: []');
    expect(config.listen.host).toBe(propertyAt.get('.listen.host')!.default);
    expect(config.listen.path).toBe(propertyAt.get('.listen.path')!.default);
    expect(config.naming.separator).toBe(propertyAt.get('.naming.separator')!.default);
  });
});
