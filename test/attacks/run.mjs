#!/usr/bin/env node
// npm run attack [-- --cli PATH] [--only TEXT]: runs every known attack against a built gateway
// CLI (default: this checkout's dist/main.js) and prints one line per attack: held or not.
// Exit code 1 when any attack got through. --cli points at another build (an older checkout's
// dist/main.js) to show which attacks it does not hold.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { attacks } from './index.mjs';
import { repoRoot } from './lib.mjs';

const { values } = parseArgs({ options: { cli: { type: 'string' }, only: { type: 'string' } } });
const cli = path.resolve(values.cli ?? path.join(repoRoot, 'dist/main.js'));
const chosen = attacks.filter((a) => !values.only || a.name.includes(values.only));
process.stdout.write(`${chosen.length} attacks against ${cli}\n`);
let breached = 0;
const started = Date.now();
for (const attack of chosen) {
  const t0 = Date.now();
  let outcome;
  try {
    outcome = await attack.run({ cli });
  } catch (err) {
    outcome = { held: false, detail: `the attack itself failed: ${String(err?.message ?? err).split('\n')[0]}` };
  }
  if (!outcome.held) breached++;
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  process.stdout.write(`${outcome.held ? 'held    ' : 'BREACHED'}  [${attack.item}, ${attack.class}] ${attack.name} (${secs}s): ${outcome.detail}\n`);
}
process.stdout.write(`${chosen.length - breached}/${chosen.length} held in ${((Date.now() - started) / 1000).toFixed(0)}s\n`);
process.exit(breached > 0 ? 1 : 0);
