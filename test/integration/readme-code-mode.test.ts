// The README's "Code mode" example, run as written: its config and script saved at the root of a
// checkout, its command line, and the output it shows; then the same script as a model sends it,
// through run_code over stdio, answering what the README says run_code answers.

import { mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, exited, nodeBin, repoRoot, spawnTracked, trackDir } from '../helpers/index.js';

const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
const start = readme.indexOf('\n## Code mode\n');
const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
/** The section's fenced blocks of one language, in order. */
const blocks = (lang: string) => [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

const [yaml] = blocks('yaml');
const [script] = blocks('js');
const [command] = blocks('sh');
const [shown] = blocks('text');
const words = command!.trim().split(/\s+/);
const scriptFile = words[words.indexOf('run') + 1]!;
const configFile = words[words.indexOf('-c') + 1]!;
// The output block: the result's JSON (stdout), then the console line (stderr).
const jsonEnd = shown!.lastIndexOf('\n}\n') + 3;
const shownResult = JSON.parse(shown!.slice(0, jsonEnd)) as Record<string, string>;
const shownLog = shown!.slice(jsonEnd).trim();

let dir: string;
let docs: string[];

beforeAll(async () => {
  // "at the root of the checkout": the files sit beside node_modules, dist/ and docs/.
  dir = trackDir(await mkdtemp(path.join(os.tmpdir(), 'sb-readme-code-')));
  for (const name of ['node_modules', 'dist', 'docs']) await symlink(path.join(repoRoot, name), path.join(dir, name));
  await writeFile(path.join(dir, configFile), yaml!);
  await writeFile(path.join(dir, scriptFile), script!);
  docs = (await readdir(path.join(repoRoot, 'docs'))).filter((f) => f.endsWith('.md')).sort();
});

afterAll(cleanup);

describe('README: Code mode', () => {
  it('shows a code-mode config, a script, the command that runs it and its output', () => {
    expect(yaml).toMatch(/^catalog: \{ mode: code \}$/m);
    expect(script).toContain('tools.files.');
    expect(words.slice(0, 3)).toEqual(['node', 'dist/main.js', 'run']);
    expect(shownLog).toBe(`read ${Object.keys(shownResult).length} files`);
    expect(section).toContain(`logs: ["${shownLog}"], calls: ${Object.keys(shownResult).length + 1} }`);
  });

  it('the command prints what the README shows: each Markdown file of docs/ and its first line', async () => {
    const child = spawnTracked(nodeBin, words.slice(1), { cwd: dir, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const { code } = await exited(child);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(result).sort()).toEqual(docs);
    // What the README shows is still true (a page added since is not shown, and need not be).
    expect(result).toMatchObject(shownResult);
    expect(stderr.trim().split('\n').at(-1)).toBe(`read ${docs.length} files`);
  }, 60_000);

  it('run_code answers the same to a client, with the logs and the count of calls', async () => {
    const client = new Client({ name: 'readme-code-mode', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: nodeBin, args: ['dist/main.js', 'serve', '--stdio', '-c', configFile], cwd: dir, stderr: 'ignore' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['run_code', 'search_tools']);
      const answer = await client.callTool({ name: 'run_code', arguments: { code: script } });
      const logs = [`read ${docs.length} files`];
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toEqual({ result: expect.objectContaining(shownResult), logs, calls: docs.length + 1 });
      expect((answer.content as { type: string; text: string }[])[0]!.text).toMatch(/^\{".*\n\nConsole:\nread \d+ files$/s);
    } finally {
      await client.close();
    }
  }, 60_000);
});
