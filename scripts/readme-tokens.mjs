// Writes the README's token figures from what `switchboard check` prints for the demo config, so
// the README, check, the dashboard and /metrics show one figure (one counter: o200k, exact).
// `node scripts/readme-tokens.mjs` rewrites README.md; `--check` only compares (exit 1 if stale).
// test/integration/first-hour.test.ts runs the comparison. Needs a built dist/.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readmePath = `${root}README.md`;

/** `<!--tokens:full-->4,224<!--/tokens-->`: the figure between the markers is generated. */
export const MARKED = /<!--tokens:(full|search)-->([\d,]*)<!--\/tokens-->/g;

/** The demo config's figures as check prints them (the whole catalog's row). */
export function checkFigures() {
  const { SWITCHBOARD_CONFIG: _ignored, ...env } = process.env;
  const out = execFileSync(process.execPath, [`${root}dist/main.js`, 'check', '--json'], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const whole = JSON.parse(out).tokens.find((t) => t.client === undefined);
  if (!whole?.exact) throw new Error('check did not count exactly');
  return { full: whole.full, search: whole.search };
}

/** The figures the README states now, by marker. */
export function readmeFigures(text = readFileSync(readmePath, 'utf8')) {
  const found = {};
  for (const m of text.matchAll(MARKED)) found[m[1]] = Number(m[2].replaceAll(',', ''));
  return found;
}

const format = (n) => n.toLocaleString('en-US');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = checkFigures();
  const text = readFileSync(readmePath, 'utf8');
  const next = text.replace(MARKED, (_, kind) => `<!--tokens:${kind}-->${format(figures[kind])}<!--/tokens-->`);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error(`README's token figures are stale: check prints ${figures.full} in full, ${figures.search} in search mode (run node scripts/readme-tokens.mjs)`);
      process.exit(1);
    }
  } else if (next !== text) {
    writeFileSync(readmePath, next);
    console.log(`README: ${figures.full} in full, ${figures.search} in search mode`);
  }
}
