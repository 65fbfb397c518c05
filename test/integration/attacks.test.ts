// Every known attack on the gateway (test/attacks), each a test named after it, run against the
// built CLI. `npm run attack` runs the same set and prints one line per attack.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module shared with the npm run attack script
import { attacks } from '../attacks/index.mjs';
import { repoRoot } from '../helpers/paths.js';

const cli = path.join(repoRoot, 'dist/main.js');

describe('attacks on the gateway are held', () => {
  for (const attack of attacks as { name: string; item: number | string; run(ctx: { cli: string }): Promise<{ held: boolean; detail: string }> }[]) {
    it(`[${attack.item}] ${attack.name}`, async () => {
      const outcome = await attack.run({ cli });
      expect(outcome.held, outcome.detail).toBe(true);
    }, 90_000);
  }
});
