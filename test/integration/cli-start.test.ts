// `npm start` looks like the README says: the README's block, read from the README, against
// what `serve` prints with the terminal's short log lines (--log-format pretty; the spinners
// themselves need a TTY and are tested in unit/cli/terminal). Figures, the path and the port may
// differ; every line of the block must be there, servers' own lines under their name.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gatewayMain, nodeBin, repoRoot, spawnTracked, terminate } from '../helpers/index.js';

afterAll(cleanup);

/** The README's block after "npm start … On a terminal it shows …". */
function readmeBlock(): string[] {
  const readme = readFileSync(`${repoRoot}/README.md`, 'utf8');
  const m = /\n```\n(starting \d+ servers from [^\n]*\n[\s\S]*?)```\n/.exec(readme);
  if (!m) throw new Error('README has no npm start block beginning "starting N servers from"');
  return m[1]!.trimEnd().split('\n');
}

/** A README line as a pattern: any figures, any path to the shipped config. */
function pattern(line: string): RegExp {
  const escaped = line
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\d+/g, '\\d+')
    .replace(/\/home\/you\/switchboard\//, '.*/');
  return new RegExp(`^${escaped}$`);
}

describe('npm start', () => {
  it("prints the README's block: a line per server, their own stderr apart under their name, the URL last", async () => {
    const block = readmeBlock();
    const child = spawnTracked(nodeBin, [gatewayMain, 'serve', '--log-format', 'pretty', '--http', '127.0.0.1:0'], { cwd: repoRoot, detached: true });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        stderr += d;
        if (/^listening on .*\n/m.test(stderr)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
    });
    await terminate(child);
    const printed = stderr.split('\n');
    const at = (line: string) => printed.findIndex((p) => pattern(line).test(p));
    for (const line of block) expect(at(line), `README line not printed: ${line}\nprinted:\n${stderr}`).toBeGreaterThanOrEqual(0);
    // The catalog once every server is in, then the URL.
    expect(at(block.at(-2)!)).toBeLessThan(at(block.at(-1)!));
    for (const line of block.filter((l) => /^\w+: connected/.test(l))) expect(at(line)).toBeLessThan(at(block.at(-2)!));
    // Nothing a server printed reaches the left margin, where the gateway's own lines are.
    expect(printed.filter((p) => /Server running on stdio|Starting default/.test(p)).every((p) => /^ {2}[a-z]+ │ /.test(p))).toBe(true);
  });
});
