// server.json → config entry: the choice of package, the pinning, and the ${VAR}s for what the
// registry marks required. The full documents and the CLI are tested in
// test/integration/registry-add.test.ts; these are the cases a fixture does not spell out.

import { describe, expect, it } from 'vitest';
import type { ServerJson } from '../../../src/cli/registry-client.js';
import { EntryError, localName, planEntry, variableName } from '../../../src/cli/registry-entry.js';

const server = (extra: Partial<ServerJson>): ServerJson => ({ name: 'io.github.example/Demo_Server', version: '1.0.0', ...extra });

describe('planEntry', () => {
  it('names the entry after the part of the registry name after the slash, as a config name', () => {
    expect(localName('io.github.example/Demo_Server.v2')).toBe('demo-server-v2');
    expect(() => localName('io.github.example/___')).toThrow(EntryError);
  });

  it('prefers a package over a remote, and npm over the other kinds', () => {
    const plan = planEntry(
      server({
        packages: [
          { registryType: 'pypi', identifier: 'demo', version: '1.0.0' },
          { registryType: 'npm', identifier: '@x/demo', version: '1.0.0' },
        ],
        remotes: [{ type: 'streamable-http', url: 'https://demo.example.com/mcp' }],
      }),
    );
    expect(plan.entry).toEqual({ name: 'demo-server', command: 'npx', args: ['-y', '@x/demo@1.0.0'] });
  });

  it('skips packages that are not stdio and falls back to a remote', () => {
    const plan = planEntry(
      server({
        packages: [{ registryType: 'npm', identifier: '@x/demo', version: '1.0.0', transport: { type: 'streamable-http', url: 'http://localhost:3000/mcp' } }],
        remotes: [{ type: 'sse', url: 'https://demo.example.com/sse' }],
      }),
    );
    expect(plan.entry).toEqual({ name: 'demo-server', url: 'https://demo.example.com/sse', transport: 'sse' });
  });

  it('refuses what it cannot pin or run, saying what the server offers', () => {
    expect(() => planEntry(server({ packages: [{ registryType: 'npm', identifier: '@x/demo' }] }))).toThrow(/names no version/);
    expect(() => planEntry(server({ packages: [{ registryType: 'cargo', identifier: 'demo', version: '1.0.0' }] }))).toThrow(/it offers cargo \(stdio\)/);
    expect(() => planEntry(server({ packages: [{ registryType: 'nuget', identifier: 'Demo', version: '1.0.0', transport: { type: 'sse', url: 'http://localhost/sse' } }] }))).toThrow(
      /it offers nuget \(sse\)/,
    );
    expect(() => planEntry(server({ packages: [{ registryType: 'nuget', identifier: 'Demo' }] }))).toThrow(/nuget package Demo names no version/);
    expect(() => planEntry(server({ packages: [{ registryType: 'mcpb', identifier: 'https://x.example/b.mcpb' }] }))).toThrow(/no valid fileSha256/);
    expect(() => planEntry(server({ packages: [{ registryType: 'mcpb', identifier: 'http://x.example/b.mcpb', fileSha256: 'a'.repeat(64) }] }))).toThrow(/not an https:\/\/ URL/);
  });

  it('puts runtime arguments before the package and package arguments after it; a missing required value is a reference', () => {
    const plan = planEntry(
      server({
        packages: [
          {
            registryType: 'pypi',
            identifier: 'demo',
            version: '2.0.0',
            runtimeArguments: [{ type: 'named', name: '--python', value: '3.12' }],
            packageArguments: [
              { type: 'positional', valueHint: 'root_dir', isRequired: true, description: 'Folder to serve' },
              { type: 'named', name: '--verbose', format: 'boolean' },
              { type: 'named', name: '--port', default: '8080' },
            ],
          },
        ],
      }),
    );
    expect(plan.entry.args).toEqual(['--python', '3.12', 'demo==2.0.0', '${ROOT_DIR}', '--port', '8080']);
    expect(plan.notes.vars.ROOT_DIR).toBe('Folder to serve (required)');
  });

  it('keeps a literal ${ in a registry value literal, so it is not read as a variable', () => {
    const plan = planEntry(server({ packages: [{ registryType: 'npm', identifier: '@x/demo', version: '1.0.0', environmentVariables: [{ name: 'TEMPLATE', value: '${HOME}/x' }] }] }));
    expect((plan.entry.env as Record<string, string>).TEMPLATE).toBe('$${HOME}/x');
  });

  it('passes an oci server its variables with -e, and adds the tag from version to a bare image', () => {
    const plan = planEntry(
      server({ packages: [{ registryType: 'oci', identifier: 'docker.io/x/demo', version: '1.2.0', environmentVariables: [{ name: 'TOKEN', isRequired: true, isSecret: true }] }] }),
    );
    expect(plan.entry).toEqual({ name: 'demo-server', command: 'docker', args: ['run', '-i', '--rm', '-e', 'TOKEN', 'docker.io/x/demo:1.2.0'], env: { TOKEN: '${TOKEN}' } });
    expect(plan.warnings.join('\n')).toMatch(/not pinned by digest/);
  });

  it('runs a nuget package with dnx at its version, --yes, and its own arguments after --', () => {
    const plan = planEntry(
      server({
        packages: [
          {
            registryType: 'nuget',
            identifier: 'Knapcode.SampleMcpServer',
            version: '0.4.0-beta',
            runtimeHint: 'dnx',
            runtimeArguments: [{ type: 'named', name: '--prerelease', format: 'boolean', value: 'true' }],
            packageArguments: [
              { type: 'positional', value: 'mcp' },
              { type: 'positional', value: 'start' },
            ],
          },
        ],
      }),
    );
    expect(plan.entry).toEqual({ name: 'demo-server', command: 'dnx', args: ['Knapcode.SampleMcpServer@0.4.0-beta', '--yes', '--prerelease', 'true', '--', 'mcp', 'start'] });
    expect(plan.source).toContain('nuget Knapcode.SampleMcpServer@0.4.0-beta');
    const bare = planEntry(server({ packages: [{ registryType: 'nuget', identifier: 'Demo', version: '1.0.0' }] }));
    expect(bare.entry.args).toEqual(['Demo@1.0.0', '--yes']);
  });

  it('takes npm, pypi and oci before nuget', () => {
    const plan = planEntry(
      server({
        packages: [
          { registryType: 'nuget', identifier: 'Demo', version: '1.0.0' },
          { registryType: 'oci', identifier: `docker.io/x/demo@sha256:${'a'.repeat(64)}`, version: '1.0.0' },
        ],
      }),
    );
    expect(plan.entry.command).toBe('docker');
  });

  it("follows runtimeHint when it names the kind's own runner, and says so when it names another", () => {
    const pkg = { registryType: 'npm', identifier: '@x/demo', version: '1.0.0' };
    expect(planEntry(server({ packages: [{ ...pkg, runtimeHint: 'npx' }] })).warnings).toEqual([]);
    const other = planEntry(server({ packages: [{ ...pkg, runtimeHint: 'bunx' }] }));
    expect(other.entry).toEqual({ name: 'demo-server', command: 'npx', args: ['-y', '@x/demo@1.0.0'] });
    expect(other.warnings).toEqual([expect.stringMatching(/hints the runtime "bunx" for @x\/demo; it runs with npx/)]);
  });

  it('refuses runtimeArguments written for a runtime other than the one it would run', () => {
    expect(() =>
      planEntry(server({ packages: [{ registryType: 'pypi', identifier: 'demo', version: '1.0.0', runtimeHint: 'pipx', runtimeArguments: [{ type: 'named', name: '--spec', value: 'x' }] }] })),
    ).toThrow(/runtimeArguments are for the runtime "pipx", and switchboard runs pypi packages with uvx/);
  });

  it('makes header names into variable names', () => {
    expect(variableName('X-API-Key')).toBe('X_API_KEY');
    expect(variableName('2fa code')).toBe('V_2FA_CODE');
  });
});
