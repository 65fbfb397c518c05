// Every known attack on the gateway (test/attacks), each a test named after it, run against the
// built CLI. `npm run attack` runs the same set and prints one line per attack. docs/security.md
// lists each attack under its class ("Attacks, by class"); the first test keeps that list true.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module shared with the npm run attack script
import { CLASSES, attacks } from '../attacks/index.mjs';
import { repoRoot } from '../helpers/paths.js';

const cli = path.join(repoRoot, 'dist/main.js');
type Attack = { name: string; item: number | string; class: string; run(ctx: { cli: string }): Promise<{ held: boolean; detail: string }> };

describe('attacks on the gateway are held', () => {
  it('docs/security.md lists every attack under its class', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs/security.md'), 'utf8');
    expect(doc).toContain('\n## Attacks, by class\n');
    const section = doc.slice(doc.indexOf('\n## Attacks, by class\n'));
    for (const a of attacks as Attack[]) {
      expect(Object.keys(CLASSES as object), `${a.name}: no class`).toContain(a.class);
      const line = section.split('\n').find((l) => l.startsWith(`- **${(CLASSES as Record<string, string>)[a.class]}**`));
      expect(line, `docs/security.md has no line for the class ${a.class}`).toBeDefined();
      expect(line, `docs/security.md does not list "${a.name}" under ${a.class}`).toContain(`“${a.name}”`);
    }
  });

  for (const attack of attacks as Attack[]) {
    it(`[${attack.item}] ${attack.name}`, async () => {
      const outcome = await attack.run({ cli });
      expect(outcome.held, outcome.detail).toBe(true);
    }, 90_000);
  }
});
