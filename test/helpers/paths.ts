// Where things are. Everything is absolute so tests do not depend on the working directory.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in <root>/test/helpers). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Node binary running the tests; use it as `command` instead of "node" (PATH-independent). */
export const nodeBin = process.execPath;

/** The built CLI entry point (override with SWITCHBOARD_MAIN=/abs/path/main.js, e.g. to test another build). */
export const gatewayMain = process.env.SWITCHBOARD_MAIN ?? path.join(repoRoot, 'dist', 'main.js');

export type FixtureName = 'echo' | 'paginated' | 'misbehaving' | 'http-server' | 'interactive' | 'poisoned' | 'catalog' | 'hostile' | 'skills';

/** Absolute path to a fixture server: fixture('echo') or fixture('echo.mjs'). */
export function fixture(name: FixtureName | `${FixtureName}.mjs` | (string & {})): string {
  const file = name.endsWith('.mjs') ? name : `${name}.mjs`;
  return path.join(repoRoot, 'test', 'fixtures', 'servers', file);
}
