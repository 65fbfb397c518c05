// config/example.yaml teaches filters by example: every glob in it must match something the
// servers it names really offer (checked against the reference servers installed here, run the
// way the default config runs them, so no network), and the file must pass `check`.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { compileGlobList } from '../../src/policy/glob.js';
import { cleanup, gatewayMain, nodeBin, repoRoot } from '../helpers/index.js';

afterAll(cleanup);

const example = parse(readFileSync(path.join(repoRoot, 'config', 'example.yaml'), 'utf8'));
const runPackage = path.join(repoRoot, 'config', 'run-package.mjs');

/** The example's npx servers, run from the installed packages instead (same package, no network). */
function local(entry: { command: string; args: string[] }) {
  const pkg = entry.args.find((a) => a.startsWith('@modelcontextprotocol/'))!;
  return { command: nodeBin, args: [runPackage, pkg, ...(pkg.endsWith('server-everything') ? ['stdio'] : [])] };
}

async function check(config: unknown): Promise<any> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-example-'));
  const file = path.join(dir, 'switchboard.yaml');
  writeFileSync(file, stringify(config));
  const { stdout, code, stderr } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    const child = spawn(nodeBin, [gatewayMain, 'check', '--json', '-c', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (c) => resolve({ stdout: out, stderr: err, code: c }));
  });
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

type Filter = string[] | { allow?: string[]; deny?: string[] } | undefined;
const globsOf = (f: Filter): string[] => (f === undefined ? [] : Array.isArray(f) ? f : [...(f.allow ?? []), ...(f.deny ?? [])]);

describe('config/example.yaml', () => {
  it('has filters that each match something the servers offer', async () => {
    const everything = example.servers.find((s: any) => s.name === 'everything');
    const memory = example.mcpServers.memory;
    // Everything the two servers offer, unfiltered, under the example's prefixes.
    const all = await check({
      servers: [
        { name: 'everything', prefix: everything.prefix, ...local(everything) },
        { name: 'memory', ...local(memory) },
      ],
    });
    const originals = (kind: string, server: string) => all[kind].filter((i: any) => i.server === server).map((i: any) => i.original);
    const exposed = (kind: string) => all[kind].map((i: any) => i.name ?? i.uri);

    const unmatched: string[] = [];
    const expectSome = (where: string, globs: string[], names: string[]) => {
      for (const glob of globs) if (!names.some(compileGlobList([glob]))) unmatched.push(`${where}: ${glob}`);
    };
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      const items = kind === 'resources' ? [...originals('resources', 'everything'), ...originals('resourceTemplates', 'everything')] : originals(kind, 'everything');
      expectSome(`servers.everything.${kind}`, globsOf(everything[kind]), items);
      for (const client of example.clients)
        expectSome(`clients.${client.name}.${kind}`, globsOf(client[kind]), kind === 'resources' ? [...exposed('resources'), ...exposed('resourceTemplates')] : exposed(kind));
    }
    expectSome('catalog.alwaysVisible', example.catalog.alwaysVisible, exposed('tools'));
    expect(unmatched).toEqual([]);
  });

  it('passes check as written, but for where its servers come from', async () => {
    const config = structuredClone(example);
    const everything = config.servers.find((s: any) => s.name === 'everything');
    Object.assign(everything, local(everything));
    Object.assign(config.mcpServers.memory, local(config.mcpServers.memory));
    delete config.catalog.embeddings; // a model server is not running here
    const report = await check(config);
    const tools = report.tools.map((t: any) => t.original);
    // The deny rule took effect, and only on what it names.
    expect(tools).not.toContain('trigger-long-running-operation');
    expect(tools).toContain('echo');
    expect(report.prompts.map((p: any) => p.original)).toEqual(['simple-prompt']);
  });
});
