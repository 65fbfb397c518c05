#!/usr/bin/env node --expose-gc
// Code mode's sandbox, measured: cold start of a run, the cost of one nested call, memory per
// run alive (10 and 50 at once), QuickJS (as src/codemode runs it) beside isolated-vm on the same
// measures, and the size and speed of the TypeScript strippers and of the argument validators.
// Usage: npm run build && node --expose-gc bench/codemode/sandbox.mjs [--quick]. Prints markdown.

import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));
const QUICK = process.argv.includes('--quick');
const N = QUICK ? 20 : 200;
const gc = globalThis.gc ?? (() => {});

const { runScript } = await import(join(ROOT, 'dist/codemode/sandbox.js'));
const { validateArgs } = await import(join(ROOT, 'dist/codemode/validate.js'));

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x) => x.toFixed(2);
const mib = (b) => (b / 1048576).toFixed(1);
const kib = (b) => `${Math.round(b / 1024)} KiB`;
const rows = [];
const row = (...cells) => rows.push(`| ${cells.join(' | ')} |`);

async function timeIt(fn, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

const ALIVE = process.argv.indexOf('--alive');

// ---- QuickJS, as runScript runs it ----------------------------------------------------------
const echo = { callables: [{ server: 's', tool: 't', inputSchema: { type: 'object' } }], call: async (_s, _t, args) => args };
if (ALIVE > 0) {
  const [engine, count] = [process.argv[ALIVE + 1], Number(process.argv[ALIVE + 2])];
  console.log(JSON.stringify(engine === 'quickjs' ? await aliveQuickjs(count) : await aliveIvm(count)));
  process.exit(0);
}
let t0 = performance.now();
const first = await runScript('return 1', { bindings: echo });
const firstRun = performance.now() - t0;
const qjsCold = await timeIt(() => runScript('return 1', { bindings: echo }), N);
const CALLS = QUICK ? 200 : 2_000;
const loop = `let n = 0;\nfor (let i = 0; i < ${CALLS}; i++) n += (await tools.s.t({ i })).i;\nreturn n`;
const qjsLoop = await timeIt(() => runScript(loop, { bindings: echo, limits: { maxCalls: CALLS } }), QUICK ? 2 : 5);
const qjsBase = pct(qjsCold, 0.5);
const qjsPerCall = ((pct(qjsLoop, 0.5) - qjsBase) / CALLS) * 1000;

/** Memory is measured in a fresh process per engine and count: one run's garbage skews another's. */
function aliveInChild(engine, count) {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--alive', engine, String(count)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

async function settleMemory() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 30));
  }
  return process.memoryUsage();
}

async function aliveQuickjs(count) {
  // Warm: the engine compiled, the allocator's pools grown, so the baseline holds only that.
  for (let i = 0; i < 20; i++) await runScript('const big = Array.from({ length: 1000 }, (_, i) => ({ i }));\nreturn big.length', { bindings: echo });
  const before = await settleMemory();
  const release = [];
  let called = 0;
  const bindings = {
    ...echo,
    call: () =>
      new Promise((resolve) => {
        called++;
        release.push(resolve);
      }),
  };
  const runs = Array.from({ length: count }, () => runScript('const big = Array.from({ length: 1000 }, (_, i) => ({ i }));\nawait tools.s.t({});\nreturn big.length', { bindings }));
  while (called < count) await new Promise((r) => setTimeout(r, 5));
  const during = await settleMemory();
  for (const r of release) r({});
  await Promise.all(runs);
  return { rss: (during.rss - before.rss) / count, external: (during.external + during.arrayBuffers - before.external - before.arrayBuffers) / count };
}
const qjsAlive10 = aliveInChild('quickjs', 10);
const qjsAlive50 = aliveInChild('quickjs', 50);

// ---- isolated-vm, the same measures --------------------------------------------------------
let ivmResult;
try {
  const ivm = require('isolated-vm');
  const ivmRun = async (code, host) => {
    const isolate = new ivm.Isolate({ memoryLimit: 64 });
    try {
      const context = await isolate.createContext();
      if (host) await context.global.set('_call', new ivm.Reference(host));
      return await context.eval(code, { promise: true, copy: true, timeout: 30_000 });
    } finally {
      isolate.dispose();
    }
  };
  const host = async (args) => args;
  await ivmRun('1');
  const cold = await timeIt(() => ivmRun('(async () => 1)()'), N);
  const ivmLoopCode = `(async () => { let n = 0; for (let i = 0; i < ${CALLS}; i++) n += await _call.apply(undefined, [i], { result: { promise: true, copy: true } }); return n })()`;
  const loopTimes = await timeIt(() => ivmRun(ivmLoopCode, host), QUICK ? 2 : 5);
  const perCall = ((pct(loopTimes, 0.5) - pct(cold, 0.5)) / CALLS) * 1000;
  const alive = (count) => aliveInChild('isolated-vm', count);
  ivmResult = { cold, perCall, alive10: alive(10), alive50: alive(50), version: require('isolated-vm/package.json').version };
} catch (err) {
  ivmResult = { error: String(err?.message ?? err).split('\n')[0] };
}

async function aliveIvm(count) {
  const ivm = require('isolated-vm');
  for (let i = 0; i < 20; i++) {
    const warm = new ivm.Isolate({ memoryLimit: 64 });
    await (await warm.createContext()).eval('Array.from({ length: 1000 }, (_, i) => ({ i })).length');
    warm.dispose();
  }
  const before = await settleMemory();
  const release = [];
  const isolates = [];
  const runs = [];
  for (let i = 0; i < count; i++) {
    const isolate = new ivm.Isolate({ memoryLimit: 64 });
    const context = await isolate.createContext();
    await context.global.set('_call', new ivm.Reference(() => new Promise((r) => release.push(r))));
    isolates.push(isolate);
    runs.push(
      context.eval('(async () => { const big = Array.from({ length: 1000 }, (_, i) => ({ i })); await _call.apply(undefined, [], { result: { promise: true } }); return big.length })()', {
        promise: true,
      }),
    );
  }
  while (release.length < count) await new Promise((r) => setTimeout(r, 5));
  const during = await settleMemory();
  for (const r of release) r(1);
  await Promise.all(runs);
  for (const i of isolates) i.dispose();
  return { rss: (during.rss - before.rss) / count, external: (during.external + during.arrayBuffers - before.external - before.arrayBuffers) / count };
}

// ---- TypeScript strippers -------------------------------------------------------------------
// Wrapped as the sandbox wraps it: the script is the body of an async function.
const TS50 = `__sb_run(async () => {\n${readFileSync(new URL('./script-50.ts', import.meta.url), 'utf8')}\n});`;
t0 = performance.now();
const sucrase = await import('sucrase');
const sucraseLoad = performance.now() - t0;
t0 = performance.now();
const esbuild = await import('esbuild');
const esbuildLoad = performance.now() - t0;
for (let i = 0; i < 50; i++) {
  sucrase.transform(TS50, { transforms: ['typescript'], disableESTransforms: true });
  esbuild.transformSync(TS50, { loader: 'ts' });
}
const sucraseTimes = await timeIt(() => sucrase.transform(TS50, { transforms: ['typescript'], disableESTransforms: true }), N * 5);
const esbuildTimes = await timeIt(() => esbuild.transformSync(TS50, { loader: 'ts' }), N * 5);
const sameLines = sucrase.transform(TS50, { transforms: ['typescript'], disableESTransforms: true }).code.split('\n').length === TS50.split('\n').length;
const esbuildLines = esbuild.transformSync(TS50, { loader: 'ts' }).code.split('\n').length === TS50.split('\n').length;

// ---- sizes: what node_modules holds, what a bundle gains ------------------------------------
function dirBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}
/** A package and its runtime dependencies, as npm installs them here. */
function closureBytes(name, seen = new Set()) {
  if (seen.has(name)) return 0;
  seen.add(name);
  let dir;
  try {
    dir = dirname(require.resolve(`${name}/package.json`));
  } catch {
    return 0;
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return dirBytes(dir) + Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).reduce((sum, d) => sum + closureBytes(d, seen), 0);
}
async function bundleBytes(contents, external = []) {
  const out = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    external,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'silent',
  });
  return out.outputFiles.reduce((s, f) => s + f.contents.length, 0);
}
const sizes = {
  quickjs: closureBytes('quickjs-emscripten-core') + closureBytes('@jitl/quickjs-wasmfile-release-sync'),
  wasm: statSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')).size,
  sucrase: closureBytes('sucrase'),
  esbuild: closureBytes('esbuild'),
  ivm: (() => {
    try {
      return closureBytes('isolated-vm');
    } catch {
      return 0;
    }
  })(),
  // What loads when code mode runs a JavaScript script: sucrase comes only for TypeScript, and
  // the tokenizer is the gateway's already (and loaded only for exact counts).
  bundleCodemode: await bundleBytes("export * from './src/codemode/sandbox.ts'; export * from './src/codemode/bindings.ts';", ['sucrase', 'gpt-tokenizer']),
  bundleSucrase: await bundleBytes("export { transform } from 'sucrase';"),
  bundleValidate: await bundleBytes("export { validateArgs } from './src/codemode/validate.ts';"),
  bundleCfworker: await bundleBytes("export { Validator } from '@cfworker/json-schema';"),
  bundleAjv: await bundleBytes("export { default } from 'ajv';"),
};

// ---- validators ------------------------------------------------------------------------------
const { Validator } = await import('@cfworker/json-schema');
const schema = JSON.parse(readFileSync(new URL('./schema-args.json', import.meta.url), 'utf8'));
const args = { q: 'is:open label:bug', state: 'open', per_page: 50, labels: ['bug', 'p1'], sort: 'updated', filter: { author: 'me' } };
const cf = new Validator(schema, '2020-12', false);
const V = N * 50;
const ours = await timeIt(() => validateArgs(schema, args), V);
const theirs = await timeIt(() => cf.validate(args), V);
const theirsFresh = await timeIt(() => new Validator(schema, '2020-12', false).validate(args), V);

// ---- report ----------------------------------------------------------------------------------
const us = (x) => (x * 1000).toFixed(1);
console.log(`## Code mode sandbox (${QUICK ? 'quick' : 'full'} run, node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`);
row('measure', 'QuickJS (runScript)', `isolated-vm ${ivmResult.version ?? ''}`);
row('---', '---', '---');
const iv = (f) => (ivmResult.error ? `n/a: ${ivmResult.error}` : f());
row('first run in a process (engine load + compile)', `${ms(firstRun)} ms`, '—');
row(
  `cold start of a run, p50 / p90 (n=${N})`,
  `${ms(pct(qjsCold, 0.5))} / ${ms(pct(qjsCold, 0.9))} ms`,
  iv(() => `${ms(pct(ivmResult.cold, 0.5))} / ${ms(pct(ivmResult.cold, 0.9))} ms`),
);
row(`  of which engine instance + context + prelude (stats.startMs, first run)`, `${ms(first.stats.startMs)} ms`, '—');
row(
  `nested call answered at once (${CALLS} in a loop)`,
  `${qjsPerCall.toFixed(1)} µs/call`,
  iv(() => `${ivmResult.perCall.toFixed(1)} µs/call`),
);
row(
  'memory per run alive, 10 at once (RSS / external)',
  `${mib(qjsAlive10.rss)} / ${mib(qjsAlive10.external)} MiB`,
  iv(() => `${mib(ivmResult.alive10.rss)} / ${mib(ivmResult.alive10.external)} MiB`),
);
row(
  'memory per run alive, 50 at once (RSS / external)',
  `${mib(qjsAlive50.rss)} / ${mib(qjsAlive50.external)} MiB`,
  iv(() => `${mib(ivmResult.alive50.rss)} / ${mib(ivmResult.alive50.external)} MiB`),
);
row('node_modules', `${kib(sizes.quickjs)} (wasm ${kib(sizes.wasm)})`, sizes.ivm ? `${kib(sizes.ivm)} (native build from source on Node 20)` : 'not installed');
console.log(rows.splice(0).join('\n'));
console.log(
  `\nWhat the gateway's bundle gains: ${kib(sizes.bundleCodemode)} of JavaScript (src/codemode and the engine's JS, in a chunk loaded on first use), ${kib(sizes.bundleSucrase)} more for sucrase (a chunk loaded only for a TypeScript script), and the ${kib(sizes.wasm)} wasm file read from node_modules.`,
);
console.log('\n### TypeScript stripping (a 50-line script, bench/codemode/script-50.ts)\n');
row('', 'sucrase', 'esbuild transform');
row('---', '---', '---');
row('first import', `${ms(sucraseLoad)} ms`, `${ms(esbuildLoad)} ms`);
row(`transform, p50 / p90 (n=${N * 5})`, `${us(pct(sucraseTimes, 0.5))} / ${us(pct(sucraseTimes, 0.9))} µs`, `${us(pct(esbuildTimes, 0.5))} / ${us(pct(esbuildTimes, 0.9))} µs`);
row('keeps every line where it was', String(sameLines), String(esbuildLines));
row('node_modules (with dependencies)', kib(sizes.sucrase), `${kib(sizes.esbuild)} (a native binary per platform)`);
row('what the bundle gains', kib(sizes.bundleSucrase), 'cannot be bundled (spawns its binary)');
console.log(rows.splice(0).join('\n'));
console.log('\n### Argument validation (bench/codemode/schema-args.json, valid arguments)\n');
row('', 'validateArgs (ours)', '@cfworker/json-schema', 'ajv');
row('---', '---', '---', '---');
row(`validate, p50 (n=${V})`, `${us(pct(ours, 0.5))} µs`, `${us(pct(theirs, 0.5))} µs (compiled once), ${us(pct(theirsFresh, 0.5))} µs (new Validator per call)`, '—');
row('what the bundle gains', kib(sizes.bundleValidate), kib(sizes.bundleCfworker), kib(sizes.bundleAjv));
console.log(rows.splice(0).join('\n'));
