// docs/operations.md's "Tuning Node for large results" gives a command line with two V8 flags:
// it must start the gateway as printed. (It once put them in NODE_OPTIONS, where Node refuses
// them and does not start at all.)

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { gatewayMain, nodeBin, repoRoot } from '../helpers/index.js';

const run = promisify(execFile);

/** The documented command line, indented as code in the section. */
function documented(): string {
  const doc = readFileSync(`${repoRoot}/docs/operations.md`, 'utf8');
  const section = doc.slice(doc.indexOf('## Tuning Node for large results'));
  const m = /\n {4}(.*switchboard.*)\n/.exec(section);
  if (!m) throw new Error('docs/operations.md: no command line in "Tuning Node for large results"');
  return m[1]!;
}

describe('the tuning flags, as documented', () => {
  it('are passed to node on its command line, which starts the gateway', async () => {
    const line = documented();
    expect(line).not.toContain('NODE_OPTIONS');
    const flags = line.split(/\s+/).filter((w) => w.startsWith('--incremental-marking'));
    expect(flags).toHaveLength(2);
    expect(line.startsWith(`node ${flags.join(' ')} `)).toBe(true);
    const { stdout } = await run(nodeBin, [...flags, gatewayMain, '--version']);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('would not start from NODE_OPTIONS (why the docs say so)', async () => {
    const flags = documented()
      .split(/\s+/)
      .filter((w) => w.startsWith('--incremental-marking'));
    await expect(run(nodeBin, [gatewayMain, '--version'], { env: { ...process.env, NODE_OPTIONS: flags.join(' ') } })).rejects.toThrow(/not allowed in NODE_OPTIONS/);
  });
});
