import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// src/search stays independent of the rest of src/ (it merges and tests on its own), and only
// embeddings.ts may do I/O: the ranking is pure.
const dir = fileURLToPath(new URL('../../../src/search/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const importsOf = (f: string): string[] => [...readFileSync(dir + f, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/gm)].map((m) => m[1] ?? m[2]!);

describe('src/search boundaries', () => {
  it('imports nothing from the rest of src/, and only the libraries it declares', () => {
    const allowed = new Set(['stemmer', 'stopword', 'gpt-tokenizer/encoding/o200k_base']);
    for (const f of files) {
      for (const spec of importsOf(f)) {
        if (spec.startsWith('.')) expect(spec, `${f} imports ${spec}`).toMatch(/^\.\/[\w-]+\.js$/);
        else if (spec.startsWith('node:')) expect(f, `${f} imports ${spec}`).toBe('embeddings.ts');
        else expect(allowed.has(spec), `${f} imports ${spec}`).toBe(true);
      }
    }
  });

  it('does I/O only in embeddings.ts', () => {
    for (const f of files.filter((x) => x !== 'embeddings.ts')) {
      expect(readFileSync(dir + f, 'utf8'), f).not.toMatch(/\bfetch\(|\bprocess\.(?:stdout|stderr)|console\./);
    }
  });
});
