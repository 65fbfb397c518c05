import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { substituteString } from '../../../src/config/env.js';
import { ConfigError } from '../../../src/config/types.js';
import { parseConfig } from '../../../src/config/load.js';
import { BASE, linesOf, parse } from './helpers.js';

describe('substituteString', () => {
  const env = { A: 'alpha', EMPTY: '', B: 'beta' };
  it.each([
    ['${A}', 'alpha'],
    ['x-${A}-${B}-y', 'x-alpha-beta-y'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${A:-fallback}', 'alpha'],
    ['${MISSING:-}', ''],
    ['${EMPTY}', ''],
    ['${MISSING:-${B}}', 'beta'],
    ['${MISSING:-${NOPE:-deep}}', 'deep'],
    ['${MISSING:-a:b-c}', 'a:b-c'],
    ['$${A}', '${A}'],
    ['$${', '${'],
    ['$$${A}', '$${A}'],
    ['${MISSING:-$${x}}', '${x}'],
    ['$A and $ and $$ and {A}', '$A and $ and $$ and {A}'],
    ['cost: 5$', 'cost: 5$'],
  ])('%s → %s', (input, expected) => {
    const result = substituteString(input, env);
    expect(result.value).toBe(expected);
    expect(result.unset).toEqual([]);
    expect(result.malformed).toBeUndefined();
  });

  it('reports unset variables by name and substitutes ""', () => {
    expect(substituteString('a${X}b${Y}c${A}', env)).toEqual({ value: 'abcalpha', unset: ['X', 'Y'], substituted: true });
  });

  it('does not report variables of a default that is not used', () => {
    expect(substituteString('${A:-${X}}', env)).toEqual({ value: 'alpha', unset: [], substituted: true });
    expect(substituteString('${MISSING:-${X}}', env).unset).toEqual(['X']);
  });

  it.each([
    ['${', 'expected a variable name after ${'],
    ['${}', 'expected a variable name after ${'],
    ['${1A}', 'expected a variable name after ${'],
    ['${A', '${A is missing its closing }'],
    ['${A:-x', '${A:-... is missing its closing }'],
    ['${A-x}', 'after ${A expected } or :-default}'],
    ['${A B}', 'after ${A expected } or :-default}'],
  ])('reports malformed %s', (input, message) => {
    expect(substituteString(input, env)).toEqual({ value: input, unset: [], malformed: message, substituted: false });
  });

  it('marks strings that had a reference, not those with only an escape', () => {
    expect(substituteString('${A}', env).substituted).toBe(true);
    expect(substituteString('$${A}', env).substituted).toBe(false);
    expect(substituteString('plain', env).substituted).toBe(false);
  });
});

describe('substituteString properties', () => {
  const noDollar = fc.string({ maxLength: 30 }).map((s) => s.replaceAll('$', ''));
  const varName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);

  it('leaves strings without $ unchanged', () => {
    fc.assert(
      fc.property(noDollar, fc.dictionary(varName, fc.string()), (s, env) => {
        expect(substituteString(s, env)).toEqual({ value: s, unset: [], substituted: false });
      }),
    );
  });

  it('replaces ${V} of a defined variable by its value, verbatim (values are not re-substituted)', () => {
    fc.assert(
      fc.property(noDollar, varName, fc.string(), noDollar, (before, name, value, after) => {
        const result = substituteString(`${before}\${${name}}${after}`, { [name]: value });
        expect(result.value).toBe(before + value + after);
        expect(result.unset).toEqual([]);
      }),
    );
  });

  it('uses the default exactly when the variable is unset or empty', () => {
    const defaultText = noDollar.map((s) => s.replaceAll('}', ''));
    fc.assert(
      fc.property(varName, fc.option(fc.string()), defaultText, (name, value, fallback) => {
        const env = value === null ? {} : { [name]: value };
        const expected = value === null || value === '' ? fallback : value;
        expect(substituteString(`\${${name}:-${fallback}}`, env).value).toBe(expected);
      }),
    );
  });

  it('turns $${ into a literal ${ whatever follows', () => {
    fc.assert(
      fc.property(noDollar, noDollar, (before, after) => {
        expect(substituteString(`${before}$\${${after}`, {}).value).toBe(`${before}\${${after}`);
      }),
    );
  });

  it('never throws, and leaves a malformed string as it was', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('$', '{', '}', ':', '-', 'A', '_', '1', ' ') }), (s) => {
        const result = substituteString(s, { A: 'x' });
        if (result.malformed) expect(result.value).toBe(s);
      }),
    );
  });
});

describe('substitution in a config', () => {
  it('substitutes every string value, but not keys', () => {
    const config = parse(
      `
listen: { host: "\${HOST}", path: "/\${P:-mcp}" }
servers:
  - name: a
    command: "\${CMD}"
    args: ["--token=\${TOKEN}", "$\${LITERAL}"]
    env: { "\${KEY}": "\${TOKEN}" }
  - name: b
    url: "https://\${HOST}:8443/mcp"
    headers: { Authorization: "Bearer \${TOKEN}" }
`,
      { HOST: 'h.example', CMD: 'node', TOKEN: 't0k', KEY: 'not-used' },
    );
    expect(config.listen.host).toBe('h.example');
    expect(config.listen.path).toBe('/mcp');
    expect(config.servers[0]).toMatchObject({ command: 'node', args: ['--token=t0k', '${LITERAL}'], env: { '${KEY}': 't0k' } });
    expect(config.servers[1]).toMatchObject({ url: 'https://h.example:8443/mcp', headers: { Authorization: 'Bearer t0k' } });
  });

  it('reads process.env when no env is given', () => {
    const name = 'SWITCHBOARD_TEST_ONLY_VAR';
    process.env[name] = 'from-process';
    try {
      const config = parseConfig(`servers: [{ name: a, command: "\${${name}}" }]`, { baseDir: BASE });
      expect(config.servers[0]).toMatchObject({ command: 'from-process' });
    } finally {
      delete process.env[name];
    }
  });

  it('coerces substituted numbers and booleans where the schema wants them', () => {
    const config = parse(
      `
listen: { port: "\${PORT:-9000}" }
catalog: { pageSize: "\${PAGE}" }
limits: { maxMessageBytes: "\${MAX:-1MiB}" }
servers: [{ name: a, command: x, timeout: "\${T}", enabled: "\${ON:-false}", env: { N: "\${PAGE}" } }]
`,
      { PAGE: '25', T: '1500' },
    );
    expect(config.listen.port).toBe(9000);
    expect(config.catalog.pageSize).toBe(25);
    expect(config.limits.maxMessageBytes).toBe(1024 * 1024);
    expect(config.servers[0]).toMatchObject({ timeoutMs: 1500, enabled: false, env: { N: '25' } });
  });

  it('reports an unset variable at its path, once per cause', () => {
    expect(
      linesOf(`
listen: { port: "\${PORT}" }
servers:
  - { name: a, command: x, env: { TOKEN: "\${TOKEN}" } }
  - { name: b, url: "\${URL}", headers: { X: "\${H1}\${H2}" } }
`),
    ).toEqual([
      'listen.port: environment variable PORT is not set',
      'servers[0].env.TOKEN: environment variable TOKEN is not set',
      'servers[1].url: environment variable URL is not set',
      'servers[1].headers.X: environment variable H1 is not set',
      'servers[1].headers.X: environment variable H2 is not set',
    ]);
  });

  it('ignores unset variables in disabled servers, and their empty values', () => {
    const config = parse(`
servers:
  - { name: a, url: "\${URL}", timeout: "\${T}", headers: { X: "\${H}" }, enabled: false }
  - { name: b, command: "\${CMD}", enabled: "\${B_ON:-false}" }
mcpServers:
  c: { command: x, env: { K: "\${K}" }, disabled: true }
`);
    expect(config.servers.map((s) => [s.name, s.enabled])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
    ]);
  });

  it('still reports other problems of a disabled server', () => {
    expect(linesOf('servers: [{ name: a, url: "${URL}", enabled: false, transprt: sse }]')).toEqual(['servers[0].transprt: unknown key (did you mean transport?)']);
  });

  it('reports malformed references, also in disabled servers', () => {
    expect(linesOf('servers: [{ name: a, command: x, args: ["${A"], enabled: false }]')).toEqual(['servers[0].args[0]: ${A is missing its closing }']);
  });
});

describe('secrets', () => {
  const SECRET = 'hunter2-S3CR3T-value';
  const env = { S: SECRET, SN: '12345678987654321' };
  it.each([
    'listen: { port: "${S}" }',
    'listen: { port: "${SN}" }',
    'listen: { path: "${S}", host: "${S}${S}", allowedOrigins: ["${S}"] }',
    'naming: { separator: "${S}", mode: "${S}" }',
    'catalog: { pageSize: "${S}" }',
    'limits: { maxMessageBytes: "${S}" }',
    'servers: [{ name: "${S}", url: "${S}", transport: "${S}", prefix: "${S}/", timeout: "${S}", enabled: "${S}" }]',
    'servers: [{ name: a, command: x, tools: "${S}", cwd: "${S}", args: "${S}" }]',
    'servers: [{ name: "${S}", command: x }, { name: "${S}", command: y }]',
    'mcpServers: { a: { url: "http://h/", type: "${S}", disabled: "${S}" } }',
  ])('never shows a value: %s', (yaml) => {
    let error: unknown;
    try {
      parseConfig(yaml, { baseDir: BASE, env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const err = error as ConfigError;
    expect(err.problems.length).toBeGreaterThan(0);
    for (const text of [err.message, JSON.stringify(err.problems)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('S3CR3T');
      expect(text).not.toContain(env.SN);
    }
  });
});
