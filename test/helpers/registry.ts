// The local MCP Registry fixture (test/fixtures/registry/registry-server.mjs) as a running
// process, and a config file in a temp folder for `switchboard add` to edit.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeBin, repoRoot } from './paths.js';
import { LineCollector, spawnTracked, trackDir } from './processes.js';

export async function startRegistry(pageSize = 3): Promise<{ url: string; stop: () => void }> {
  const proc = spawnTracked(nodeBin, [path.join(repoRoot, 'test/fixtures/registry/registry-server.mjs')], { env: { ...process.env, REGISTRY_PAGE_SIZE: String(pageSize) } });
  const line = await new LineCollector(proc.stdout).waitForLine(/"url"/, 10_000, 'registry fixture');
  return { url: (JSON.parse(line) as { url: string }).url, stop: () => proc.kill() };
}

/** A temp folder with `switchboard.yaml` holding `text`; `read()` gives the file's current text. */
export function configFile(text: string): { dir: string; file: string; read: () => string } {
  const dir = trackDir(mkdtempSync(path.join(os.tmpdir(), 'switchboard-registry-')));
  const file = path.join(dir, 'switchboard.yaml');
  writeFileSync(file, text);
  return { dir, file, read: () => readFileSync(file, 'utf8') };
}
