// The layer rules of docs/architecture.md, enforced: walks every import in src/ and fails on an
// edge that points up, on I/O in a pure layer, and on a third-party package outside its one home.
// Type-only imports count too: a type that lives in the wrong layer is a design smell all the same.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

/** The layer of a file: its folder under src/, or the file itself for the few at the top. */
function layerOf(file: string): string {
  const rel = path.relative(SRC, file).replaceAll(path.sep, '/');
  const [first, ...rest] = rel.split('/');
  if (rest.length === 0) return first!.replace(/\.ts$/, '');
  // Auth lives beside the face it serves but is its own small world of third-party code.
  if ((first === 'inbound' || first === 'outbound') && rest[0] === 'auth') return `${first}/auth`;
  if (first === 'search' && rest[0] === 'embeddings.ts') return 'search/embeddings';
  return first!;
}

/**
 * Which layers each layer may import (besides itself). Edges point down:
 * cli → app → inbound → router → outbound / catalog / policy → jsonrpc → protocol.
 * config/types.ts is data shape (allowed everywhere); loading config is for app and cli.
 */
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  errors: ['protocol'],
  log: [],
  // Replacing a file in one rename: the tokens, credentials and lock files, the config on `add`.
  'atomic-file': [],
  transport: ['protocol'],
  jsonrpc: ['protocol', 'errors', 'transport'],
  policy: ['protocol'],
  search: [],
  'search/embeddings': ['search'],
  catalog: ['protocol', 'policy', 'search', 'config-types'],
  observability: ['protocol', 'errors', 'log', 'catalog', 'config-types'],
  'outbound/auth': ['protocol', 'errors', 'log', 'atomic-file'],
  outbound: ['protocol', 'errors', 'log', 'jsonrpc', 'transport', 'config-types', 'outbound/auth'],
  router: ['protocol', 'errors', 'log', 'jsonrpc', 'outbound', 'catalog', 'policy', 'observability', 'config-types', 'state'],
  // The store behind sessions shared by replicas (issue 32): beside the router, below inbound.
  state: ['protocol', 'errors', 'log', 'atomic-file', 'jsonrpc', 'config-types'],
  'inbound/auth': ['protocol', 'errors', 'log', 'config-types'],
  // The connect pages (issue 33): orchestration only; OAuth/OIDC protocol code stays in the auth/ folders.
  connect: ['protocol', 'errors', 'log', 'config-types', 'state', 'observability', 'outbound/auth', 'inbound/auth'],
  // Code mode (handlers/run-code.ts, code-callables.ts) is loaded lazily, on the first run or once configured.
  inbound: ['protocol', 'errors', 'log', 'jsonrpc', 'router', 'catalog', 'policy', 'observability', 'config-types', 'inbound/auth', 'codemode', 'state'],
  config: ['protocol', 'errors', 'policy', 'config-types'],
  // The app owns the tool search (app/tool-finder.ts): the index and, with catalog.embeddings, the
  // hybrid ranking over it. The router no longer holds either (issue 29).
  app: [
    'protocol',
    'errors',
    'log',
    'jsonrpc',
    'outbound',
    'router',
    'inbound',
    'catalog',
    'policy',
    'observability',
    'search',
    'search/embeddings',
    'config',
    'config-types',
    'outbound/auth',
    'inbound/auth',
    'state',
    'connect',
    'atomic-file',
  ],
  // observability: `switchboard users revoke` writes credential.revoke to the audit log itself.
  cli: ['protocol', 'errors', 'log', 'app', 'config', 'config-types', 'catalog', 'outbound', 'inbound', 'search', 'outbound/auth', 'inbound/auth', 'state', 'observability', 'atomic-file'],
  main: ['protocol', 'errors', 'log', 'app', 'cli', 'config', 'config-types'],
  // Takes callbacks for everything it needs from the gateway; search only for the token estimate.
  codemode: ['search'],
};

/** Layers that do no I/O: no file system, network or processes. */
const PURE = new Set(['protocol', 'policy', 'catalog', 'jsonrpc', 'search', 'errors', 'transport']);
const IO_MODULES = /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|dgram|tls|worker_threads)$|^(undici|execa)$/;

/** The one home of each third-party package (a layer, or a file under src/). */
const HOMES: Record<string, string[]> = {
  execa: ['outbound/stdio-transport.ts'],
  undici: ['outbound/http-', 'search/embeddings.ts'],
  'eventsource-parser': ['outbound/http-'],
  yaml: ['config/'],
  zod: ['config/'],
  pino: ['log.ts'],
  'pino-pretty': ['log.ts'],
  rxjs: ['catalog/store.ts', 'config/watch.ts', 'state/redis-health.ts'],
  // node-redis: only the Redis store and its connections, loaded by open-store.ts's dynamic import when state.redis is set.
  '@redis/client': ['state/redis-store.ts', 'state/redis-connection.ts'],
  jose: ['inbound/auth/', 'outbound/auth/'],
  oauth4webapi: ['outbound/auth/'],
  stemmer: ['search/'],
  stopword: ['search/'],
  'gpt-tokenizer': ['search/'],
  'prom-client': ['observability/metrics.ts'],
  '@opentelemetry/api': ['observability/tracing-sdk.ts'],
  '@opentelemetry/core': ['observability/tracing-sdk.ts'],
  '@opentelemetry/resources': ['observability/tracing-sdk.ts'],
  '@opentelemetry/sdk-trace-base': ['observability/tracing-sdk.ts'],
  '@opentelemetry/exporter-trace-otlp-http': ['observability/tracing-sdk.ts'],
  '@opentelemetry/exporter-trace-otlp-proto': ['observability/tracing-sdk.ts'],
  'quickjs-emscripten-core': ['codemode/'],
  '@jitl/quickjs-wasmfile-release-sync': ['codemode/engine.ts'],
  sucrase: ['codemode/transpile.ts'],
  // mcpb bundles are zip archives: only the bundle unpacker reads them.
  yauzl: ['cli/zip.ts'],
};

interface Edge {
  from: string;
  spec: string;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) specs.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/createRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => path.join(SRC, f));
const edges: Edge[] = files.flatMap((from) => importsOf(from).map((spec) => ({ from, spec })));
const rel = (f: string) => path.relative(SRC, f).replaceAll(path.sep, '/');

function targetLayer(e: Edge): string | undefined {
  if (!e.spec.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(e.from), e.spec).replace(/\.js$/, '.ts');
  if (rel(target) === 'config/types.ts') return 'config-types';
  return layerOf(target);
}

describe('layer rules (docs/architecture.md)', () => {
  it('every layer imports only the layers below it', () => {
    const bad = edges
      .map((e) => ({ e, from: layerOf(e.from), to: targetLayer(e) }))
      .filter(({ from, to }) => to !== undefined && to !== from && !(from === 'config' && to === 'config-types') && !(ALLOWED[from] ?? []).includes(to))
      .map(({ e, from, to }) => `${rel(e.from)} (${from}) → ${e.spec} (${to})`);
    expect(bad).toEqual([]);
  });

  it('every file belongs to a known layer', () => {
    expect([...new Set(files.map(layerOf))].filter((l) => !(l in ALLOWED))).toEqual([]);
  });

  it('pure layers do no I/O', () => {
    const bad = edges.filter((e) => PURE.has(layerOf(e.from)) && IO_MODULES.test(e.spec)).map((e) => `${rel(e.from)} → ${e.spec}`);
    expect(bad).toEqual([]);
  });

  it('each third-party package is imported only in its home', () => {
    const bad = edges
      .filter((e) => !e.spec.startsWith('.') && !e.spec.startsWith('node:'))
      .map((e) => ({ e, pkg: e.spec.startsWith('@') ? e.spec.split('/').slice(0, 2).join('/') : e.spec.split('/')[0]! }))
      .filter(({ e, pkg }) => {
        const homes = HOMES[pkg];
        return homes === undefined || !homes.some((h) => rel(e.from).startsWith(h));
      })
      .map(({ e, pkg }) => `${rel(e.from)} → ${pkg}`);
    expect(bad).toEqual([]);
  });
});

// Issue 31 item 11: the Router is two seams, the connection registry and the per-session state,
// and a handler gets both (and the read-only gateway) on its RequestContext.
describe('the seams handlers use', () => {
  const handlerFiles = files.filter((f) => rel(f).startsWith('inbound/handlers/'));

  it('no handler reaches through a router', () => {
    const bad = handlerFiles.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${rel(f)}:${i + 1}` }))
        .filter(({ line }) => /\brouter\s*\.|\{[^}]*\brouter\b[^}]*\}\s*=|\bRouter\b/.test(line.replace(/\/\/.*$/, '')))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(bad).toEqual([]);
  });

  it('the client session imports none of its handlers but the method table', () => {
    const session = files.find((f) => rel(f) === 'inbound/client-session.ts')!;
    const fromHandlers = importsOf(session).filter((spec) => spec.startsWith('./handlers/'));
    expect(fromHandlers).toEqual(['./handlers/index.js']);
  });
});
