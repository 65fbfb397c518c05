// What the help text, the README, docs/configuration.md and docs/operations.md say `check` does
// must agree with what it does: validate, then start every server once (exit 0 / 1), or stop at
// an invalid file (exit 2) before starting anything.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../../src/cli/args.js';

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const docs = { USAGE, 'README.md': read('README.md'), 'docs/configuration.md': read('docs/configuration.md'), 'docs/operations.md': read('docs/operations.md') };

describe('check, as documented', () => {
  it.each(Object.entries(docs))('%s says check connects to the servers and what each exit code means', (_, text) => {
    expect(text).toMatch(/check[^\n]*\n?[^\n]*(connect|start)[^\n]*(every|each)[^\n]*server|connect(s|ing)? to every server/i);
    expect(text).toMatch(/\b2\b[^\n]*invalid|invalid[^\n]*\b2\b|\*\*2\*\*/);
    expect(text).not.toMatch(/check[^.]*without starting anything[^.]*\./i);
  });
});
