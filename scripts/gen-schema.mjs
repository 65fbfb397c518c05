// Writes schema/switchboard.schema.json (the JSON Schema editors use for config files) from the
// built config module. Run after `npm run build`: `npm run schema`. `--check` only compares, and
// exits 1 when the committed file is out of date.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const srcDir = new URL('src/config/', root);
const distDir = new URL('dist/config/', root);
const target = new URL('schema/switchboard.schema.json', root);

function fail(message) {
  console.error(`gen-schema: ${message}`);
  process.exit(1);
}

// A dist/ older than src/ would silently write yesterday's schema.
for (const file of readdirSync(srcDir).filter((f) => f.endsWith('.ts'))) {
  const built = new URL(file.replace(/\.ts$/, '.js'), distDir);
  if (!existsSync(built)) fail(`dist/config/${file.replace(/\.ts$/, '.js')} is missing: run \`npm run build\` first`);
  if (statSync(built).mtimeMs < statSync(new URL(file, srcDir)).mtimeMs) {
    fail(`dist/ is older than src/config/${file}: run \`npm run build\` first`);
  }
}

const { renderJsonSchema } = await import(new URL('schema.js', distDir).href);
const text = renderJsonSchema();

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) fail('schema/switchboard.schema.json is out of date: run `npm run build && npm run schema`');
  console.log('schema/switchboard.schema.json is up to date');
} else {
  writeFileSync(target, text);
  console.log('wrote schema/switchboard.schema.json');
}
