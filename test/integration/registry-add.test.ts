// `switchboard registry search` and `switchboard add` as a user runs them: the built CLI against a
// local MCP Registry (test/fixtures/registry/: hand-written server.json documents in the published
// 2025-12-11 format, and a real mcpb bundle), editing a real config file; then `check` on the result.

import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RegistryClient } from '../../src/cli/registry-client.js';
import { cleanup, runCli } from '../helpers/index.js';
import { repoRoot } from '../helpers/paths.js';
import { configFile, startRegistry } from '../helpers/registry.js';

let registry: { url: string; stop: () => void };
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(cleanup);

/** A config with comments, blank lines, flow maps and quoting: everything add must keep. */
const USER_CONFIG = `# yaml-language-server: $schema=../schema/switchboard.schema.json
#
# Our team's gateway. Keep this header.

listen: { host: 127.0.0.1, port: 0, path: /mcp }   # any free port
naming: { separator: "__", mode: always }

servers:
  # The one we wrote ourselves.
  - name: local-notes
    command: node
    args: ["-e", "1"]   # placeholder
    enabled: false
`;

const add = (args: string[], file: string, env: Record<string, string> = {}) => runCli(['add', ...args, '-c', file, '--registry', registry.url], undefined, env);

describe('registry search', () => {
  it('prints one page of matching servers and says how to get the next', async () => {
    const r = await runCli(['registry', 'search', 'example', '--registry', registry.url]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(3);
    expect(r.stderr).toContain('--cursor 3');
    const next = await runCli(['registry', 'search', 'example', '--registry', registry.url, '--cursor', '3']);
    expect(next.stdout.trim().split('\n')).toHaveLength(3);
    expect(next.stdout).not.toContain(r.stdout.split('\n')[0]);
  });

  it('follows every page with --all, and lists only the latest version of each server', async () => {
    const r = await runCli(['registry', 'search', 'example', '--registry', registry.url, '--all', '--json']);
    expect(r.code).toBe(0);
    const { servers, nextCursor } = JSON.parse(r.stdout) as { servers: { name: string; version: string }[]; nextCursor?: string };
    expect(nextCursor).toBeUndefined();
    expect(servers.map((s) => `${s.name}@${s.version}`)).toContain('io.github.example/weather@1.1.0');
    expect(servers.map((s) => s.name).filter((n) => n === 'io.github.example/weather')).toHaveLength(1);
    expect(servers.length).toBe(10);
  });

  it('uses the registry the config names when --registry is not given', async () => {
    const cfg = configFile(`registry: { url: "${registry.url}" }\n`);
    const r = await runCli(['registry', 'search', 'timezone', '-c', cfg.file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('io.github.example/timezone@2.3.1');
  });
});

describe('add', () => {
  it('appends a pinned npm entry and keeps every byte of the file before it', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['io.github.example/weather@1.0.0'], cfg.file);
    expect(r.code, r.stderr).toBe(0);
    const after = cfg.read();
    expect(after.startsWith(USER_CONFIG)).toBe(true);
    expect(after.slice(USER_CONFIG.length)).toBe(`
  # from the MCP Registry: io.github.example/weather 1.0.0: npm @example/weather-mcp@1.0.0
  - name: weather
    command: npx
    args:
      - -y
      - "@example/weather-mcp@1.0.0"
      - --units
      - metric
`);
  });

  it('refuses a name already present, leaving the file byte-identical; --update moves it on and keeps what the user set', async () => {
    const cfg = configFile(USER_CONFIG);
    expect((await add(['io.github.example/weather@1.0.0'], cfg.file)).code).toBe(0);
    const edited = `${cfg.read().replace('    command: npx\n', '    command: npx\n    description: Forecasts for the team # ours\n')}`;
    writeFileSync(cfg.file, edited);

    const again = await add(['io.github.example/weather'], cfg.file);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/a server named "weather" is already in .* --update/);
    expect(cfg.read()).toBe(edited);

    const up = await add(['io.github.example/weather', '--update'], cfg.file);
    expect(up.code, up.stderr).toBe(0);
    const after = cfg.read();
    expect(after).toContain('"@example/weather-mcp@1.1.0"');
    expect(after).not.toContain('weather-mcp@1.0.0');
    expect(after).toContain('description: Forecasts for the team # ours');
    expect(after).toContain('# from the MCP Registry: io.github.example/weather 1.1.0');
    expect(after).toMatch(/# Region code for forecasts \(required\)\n\s+WEATHER_REGION: \$\{WEATHER_REGION\}/);
    expect(after.startsWith(USER_CONFIG)).toBe(true);
  });

  it("--name chooses the entry's name, held to the config's rule; --update with --name finds that entry", async () => {
    const cfg = configFile(USER_CONFIG);
    const bad = await add(['io.github.example/weather@1.0.0', '--name', 'Forecasts_EU'], cfg.file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--name "Forecasts_EU" is not a server name: use 1 to 64 lowercase letters, digits and -');
    expect(cfg.read()).toBe(USER_CONFIG);

    const r = await add(['io.github.example/weather@1.0.0', '--name', 'forecasts-eu'], cfg.file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('added server "forecasts-eu"');
    expect(cfg.read()).toContain('  # from the MCP Registry: io.github.example/weather 1.0.0: npm @example/weather-mcp@1.0.0\n  - name: forecasts-eu\n');

    // The same registry server again under its own name is another entry; under the taken one, an error.
    const taken = await add(['io.github.example/weather@1.0.0', '--name', 'forecasts-eu'], cfg.file);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('--update io.github.example/weather --name forecasts-eu');
    const without = await add(['io.github.example/weather', '--update'], cfg.file);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('no server named "weather"');
    expect(without.stderr).toContain('name the entry with --name');

    const up = await add(['io.github.example/weather', '--update', '--name', 'forecasts-eu'], cfg.file);
    expect(up.code, up.stderr).toBe(0);
    const after = cfg.read();
    expect(after).toContain('  # from the MCP Registry: io.github.example/weather 1.1.0: npm @example/weather-mcp@1.1.0\n  - name: forecasts-eu\n');
    expect(after).not.toContain('weather-mcp@1.0.0');
    expect(after).not.toContain('name: weather\n');
  });

  it('--update moves an entry written in flow style, in a flow list, keeping the rest of the file', async () => {
    const flow = `# Flow style throughout.
servers: [
  { name: local-notes, command: node, args: ["-e", "1"], enabled: false },   # ours
  { name: weather, command: npx, args: [-y, "@example/weather-mcp@1.0.0", --units, metric], env: { WEATHER_REGION: eu } }
]
listen: { host: 127.0.0.1, port: 0 }
`;
    const cfg = configFile(flow);
    const up = await add(['io.github.example/weather', '--update'], cfg.file);
    expect(up.code, up.stderr).toBe(0);
    expect(cfg.read()).toBe(`# Flow style throughout.
servers: [
  { name: local-notes, command: node, args: ["-e", "1"], enabled: false },   # ours
  # from the MCP Registry: io.github.example/weather 1.1.0: npm @example/weather-mcp@1.1.0
  { name: weather, command: npx, args: [ -y, "@example/weather-mcp@1.1.0", --units, metric ], env: { WEATHER_REGION: eu } }
]
listen: { host: 127.0.0.1, port: 0 }
`);
    expect(parse(cfg.read()).servers[1].args).toEqual(['-y', '@example/weather-mcp@1.1.0', '--units', 'metric']);
  });

  it('will not edit the demo config shipped with the package when no -c is given', async () => {
    const r = await runCli(['add', 'io.github.example/weather', '--registry', registry.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name it with -c FILE');
  });

  it('--update of a name not in the file is an error', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['io.github.example/weather', '--update'], cfg.file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no server named "weather"');
    expect(cfg.read()).toBe(USER_CONFIG);
  });

  it('--dry-run prints the entry and writes nothing', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['io.github.example/timezone', '--dry-run'], cfg.file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('command: uvx');
    expect(r.stdout).toContain('- mcp-server-timezone==2.3.1');
    expect(cfg.read()).toBe(USER_CONFIG);
  });

  it('pins an oci image by digest, and warns when the registry gives a tag only', async () => {
    const cfg = configFile(USER_CONFIG);
    const pinned = await add(['io.github.example/sqlite'], cfg.file);
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).not.toContain('warning');
    expect(cfg.read()).toMatch(/- docker\.io\/example\/sqlite-mcp@sha256:[0-9a-f]{64}\n/);
    expect(cfg.read()).toContain('- ${DB_DIR}:/data # DB_DIR: Folder holding the databases (required)');
    const tagged = await add(['io.github.example/fetcher'], cfg.file);
    expect(tagged.code).toBe(0);
    expect(tagged.stderr).toMatch(/warning: the image ghcr\.io\/example\/fetcher:0\.9\.0 is not pinned by digest/);
    expect(cfg.read()).toContain('(unpinned: tag only)');
  });

  it('runs a nuget package with dnx, pinned, its own arguments after --', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['io.github.example/dice'], cfg.file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    expect(cfg.read().slice(USER_CONFIG.length)).toBe(`
  # from the MCP Registry: io.github.example/dice 0.5.0: nuget Example.DiceMcpServer@0.5.0
  - name: dice
    command: dnx
    args:
      - Example.DiceMcpServer@0.5.0
      - --yes
      - --
      - mcp
      - start
    env:
      # Sides on each die
      DICE_SIDES: \${DICE_SIDES:-6}
`);

    // check runs the entry: a stand-in dnx first on PATH serves only when called as the entry says.
    const { DICE_SIDES: _unset, ...rest } = process.env;
    const env = { ...(Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Record<string, string>) };
    env.PATH = `${path.join(repoRoot, 'test/fixtures/registry/bin')}${path.delimiter}${process.env.PATH ?? ''}`;
    const check = await runCli(['check', '--json', '-c', cfg.file], undefined, env);
    expect(check.code, check.stderr + check.stdout).toBe(0);
    expect(check.stdout).toContain('dice__echo');
  });

  it('turns a remote into url + transport, with its variables and headers as ${VAR} references', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['com.example/tickets'], cfg.file);
    expect(r.code).toBe(0);
    const after = cfg.read();
    expect(after).toContain("url: https://${TENANT}.tickets.example.com/mcp # TENANT: Your tenant's subdomain (required)");
    expect(after).toContain('transport: streamable-http');
    expect(after).toContain('Authorization: Bearer ${API_TOKEN}');
    expect(after).toContain('X-Region: ${X_REGION:-eu}');
  });

  it('makes required variables ${VAR} references with their descriptions, and check says which are unset', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await add(['io.github.example/github-issues'], cfg.file);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('GITHUB_TOKEN, GITHUB_ORG');
    expect(r.stderr).toContain('optional environment variable GITHUB_API_URL left out');
    expect(cfg.read()).toContain('      # A personal access token with repo scope (secret) (required)\n      GITHUB_TOKEN: ${GITHUB_TOKEN}\n');

    const { GITHUB_TOKEN: _t, GITHUB_ORG: _o, ...rest } = process.env;
    const check = await runCli(['check', '-c', cfg.file], undefined, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Record<string, string>);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('environment variable GITHUB_TOKEN is not set');
    expect(check.stderr).toContain('environment variable GITHUB_ORG is not set');
  });
});

describe('add with an mcpb bundle', () => {
  it('downloads, verifies and unpacks the bundle, and check runs the server from its manifest', async () => {
    const cfg = configFile('servers: []\n');
    const env = { SWITCHBOARD_CACHE_DIR: path.join(cfg.dir, 'cache') };
    const r = await add(['io.github.example/hello'], cfg.file, env);
    expect(r.code, r.stderr).toBe(0);
    const bundleDir = path.join(cfg.dir, 'cache', 'mcpb', '9e2c48ea632b39ee2565710d1c708326e3d98ca8b9e5a18ab72bf47abc72a1c4');
    expect(existsSync(path.join(bundleDir, 'server', 'index.js'))).toBe(true);
    expect(cfg.read()).toContain(`- ${bundleDir}/server/index.js`);
    expect(cfg.read()).toContain('GREETING: ${GREETING:-hello}');

    const check = await runCli(['check', '--json', '-c', cfg.file]);
    expect(check.code, check.stderr + check.stdout).toBe(0);
    expect(check.stdout).toContain('hello__greet');
  });

  it('--dry-run verifies the bundle and prints its command, unpacking and writing nothing', async () => {
    const cfg = configFile(USER_CONFIG);
    const cache = path.join(cfg.dir, 'cache');
    const r = await add(['io.github.example/hello', '--dry-run'], cfg.file, { SWITCHBOARD_CACHE_DIR: cache });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('command: node');
    expect(r.stdout).toContain(`- ${path.join(cache, 'mcpb', '9e2c48ea632b39ee2565710d1c708326e3d98ca8b9e5a18ab72bf47abc72a1c4')}/server/index.js`);
    expect(r.stderr).toContain("dry run: verified the bundle's SHA-256");
    expect(existsSync(cache)).toBe(false);
    expect(cfg.read()).toBe(USER_CONFIG);

    const tampered = await add(['io.github.example/tampered', '--dry-run'], cfg.file, { SWITCHBOARD_CACHE_DIR: cache });
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/the registry says 0{64}: not installed/);
  });

  it("refuses a bundle whose SHA-256 is not the registry's: nothing written, nothing unpacked", async () => {
    const cfg = configFile(USER_CONFIG);
    const cache = path.join(cfg.dir, 'cache');
    const r = await add(['io.github.example/tampered'], cfg.file, { SWITCHBOARD_CACHE_DIR: cache });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/has SHA-256 9e2c48ea[0-9a-f]+, the registry says 0{64}: not installed/);
    expect(cfg.read()).toBe(USER_CONFIG);
    expect(existsSync(path.join(cache, 'mcpb')) ? readdirSync(path.join(cache, 'mcpb')) : []).toEqual([]);
  });
  it('refuses a bundle with the right digest whose archive would write outside its folder: nothing written, nothing left in the cache', async () => {
    const cfg = configFile(USER_CONFIG);
    const cache = path.join(cfg.dir, 'cache');
    for (const flags of [[], ['--dry-run']]) {
      const r = await add(['io.github.example/escape', ...flags], cfg.file, { SWITCHBOARD_CACHE_DIR: cache });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('switchboard: unsafe path in the archive: invalid relative path: ../../escape.js');
      expect(cfg.read()).toBe(USER_CONFIG);
      expect(existsSync(path.join(cache, 'mcpb')) ? readdirSync(path.join(cache, 'mcpb')) : []).toEqual([]);
      expect(existsSync(path.join(cache, 'escape.js'))).toBe(false);
    }
  });
});

describe('registry errors change nothing', () => {
  it.each([
    ['io.example/http-500', /the registry answered HTTP 500 to GET .*: database unavailable/],
    ['io.example/not-json', /answered something that is not JSON/],
    ['io.example/huge', /larger than 4194304 bytes/],
    ['io.example/no-such-server', /no server "io\.example\/no-such-server" in the registry/],
  ])('%s', async (name, message) => {
    const cfg = configFile(USER_CONFIG);
    const r = await add([name], cfg.file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(cfg.read()).toBe(USER_CONFIG);
  });

  it('a registry that stops answering mid-body times out with a clear error', async () => {
    const client = new RegistryClient(registry.url, { timeoutMs: 300 });
    await expect(client.server('io.example/hang')).rejects.toThrow(/did not answer within 0\.3s: GET .*io\.example%2Fhang/);
  });

  it('an unreachable registry', async () => {
    const cfg = configFile(USER_CONFIG);
    const r = await runCli(['add', 'io.github.example/weather', '-c', cfg.file, '--registry', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach the registry: GET http:\/\/127\.0\.0\.1:9\/v0\.1\/servers\//);
    expect(cfg.read()).toBe(USER_CONFIG);
  });
});
