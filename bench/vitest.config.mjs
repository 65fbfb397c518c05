// The harness's own unit tests (pure parts: pairing, targets, perf parsing): `npm run bench:test`.
// Kept apart from the gateway's suite, whose config only includes test/**/*.test.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { include: ['test/**/*.test.mjs'] },
});
