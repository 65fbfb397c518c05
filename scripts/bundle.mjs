// Bundles the CLI into dist/main.js (+ dist/chunks/ for what loads lazily: HTTP transports,
// stdio transport, search, auth). Start-up time was mostly module resolution over ~150 files and
// their dependencies: one file to compile is about twice as fast to start (bench/NOTES.md).
// tsc has already written dist/ file by file (type checking, and the modules the conformance
// driver imports); this replaces only the entry point. esbuild, because it is what does this well.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/chunks`, { recursive: true, force: true });
await build({
  entryPoints: { main: `${root}src/main.ts` },
  outdir: `${root}dist`,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // rxjs's "node" export is its CommonJS build, which cannot be tree-shaken: take the ES one. The
  // same for stopword (every language's list; the catalog's server directory needs English only).
  alias: { rxjs: `${root}node_modules/rxjs/dist/esm/index.js`, stopword: `${root}node_modules/stopword/src/stopword.js` },
  // Some dependencies (pino) call require(); ESM output needs one.
  banner: { js: "import { createRequire as __sbRequire } from 'node:module'; const require = __sbRequire(import.meta.url);" },
  // Whitespace and syntax only: identifiers stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
});
