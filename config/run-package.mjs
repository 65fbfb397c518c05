// node run-package.mjs <package> [args...]: runs an installed package's command (its `bin`),
// found the way Node finds a dependency from this file. The default config starts the reference
// servers through it so that it works wherever npm put them: a clone's node_modules, a global
// install's nested node_modules, or a prefix install's hoisted one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [name, ...args] = process.argv.slice(2);
if (!name) {
  console.error('usage: node run-package.mjs <package> [args...]');
  process.exit(2);
}
let manifestPath;
try {
  manifestPath = createRequire(import.meta.url).resolve(`${name}/package.json`);
} catch {
  console.error(`Error: ${name} is not installed (it is an optional dependency of mcp-switchboard: install it, or use -c with your own config)`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
if (typeof bin !== 'string') {
  console.error(`Error: ${name} has no command to run (no "bin" in its package.json)`);
  process.exit(1);
}
const entry = join(dirname(manifestPath), bin);
// The package's command reads its arguments from process.argv, as if started directly.
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(entry).href);
