// The workspace the multi-step tasks work on: a small project (docs, sources, logs, CSV data,
// JSON configs) written from a seeded generator, so every run, and both modes of one run, start
// from the same bytes. makeWorkspace() wipes the folder first; sizes are chosen away from the
// tasks' thresholds (a 20 KiB cut for logs), so a size shown rounded can never change an answer.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Environment of server-everything: the numbers the env → echo → sum pipeline adds up. */
export const QUOTA_ENV = {
  BENCH_QUOTA_NORTH: '1250',
  BENCH_QUOTA_SOUTH: '980',
  BENCH_QUOTA_EAST: '2210',
  BENCH_QUOTA_WEST: '1475',
  BENCH_QUOTA_CENTRAL: '3020',
  BENCH_QUOTA_ISLANDS: '415',
  BENCH_REGION_COUNT: '6',
};

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'gateway request session server client catalog profile policy token budget limit timeout retry ' +
  'cache queue worker schema tool resource prompt stream buffer message header payload route ' +
  'upstream downstream latency throughput metric trace span audit log error warning handler ' +
  'config deploy rollout canary shard replica index search query result page cursor batch'
).split(' ');

function sentence(r, n) {
  const w = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]);
  return `${w[0][0].toUpperCase() + w.join(' ').slice(1)}.`;
}

function paragraphs(r, bytes) {
  let out = '';
  while (out.length < bytes) out += `${Array.from({ length: 3 + Math.floor(r() * 4) }, () => sentence(r, 6 + Math.floor(r() * 10))).join(' ')}\n\n`;
  return out;
}

const DOCS = [
  ['README.md', 'Switchboard demo workspace: what lives where', 1_800],
  ['architecture.md', 'Architecture: the router, the catalog and the policy layer', 26_000],
  ['onboarding.md', 'Onboarding checklist for new engineers', 4_200],
  ['runbook.md', 'Runbook: paging, rollbacks and the on-call rotation', 18_500],
  ['changelog.md', 'Changelog since the 0.4 release', 9_700],
  ['api-guide.md', 'API guide: sessions, cursors and error codes', 31_000],
  ['faq.md', 'Frequently asked questions about limits', 2_600],
  ['glossary.md', 'Glossary of gateway terms', 700],
];

const SOURCES = [
  'index.ts',
  'api/routes.ts',
  'api/handlers.ts',
  'api/auth.ts',
  'api/errors.ts',
  'lib/cache.ts',
  'lib/queue.ts',
  'lib/retry.ts',
  'lib/metrics.ts',
  'lib/config.ts',
  'ui/app.ts',
  'ui/table.ts',
  'ui/theme.ts',
  'legacy/shim.js',
  'legacy/polyfills.js',
  'legacy/util.js',
];

function sourceFile(r, name) {
  const lines = [`// ${name}: part of the demo service.`, "import { config } from './config';", ''];
  const fns = 3 + Math.floor(r() * 14);
  for (let f = 0; f < fns; f++) {
    const fn = WORDS[Math.floor(r() * WORDS.length)] + WORDS[Math.floor(r() * WORDS.length)].replace(/^./, (c) => c.toUpperCase());
    lines.push(`export function ${fn}${f}(input, options = {}) {`);
    const body = 2 + Math.floor(r() * 9);
    for (let b = 0; b < body; b++) {
      const x = r();
      if (x < 0.07) lines.push(`  // TODO: ${sentence(r, 5).toLowerCase()}`);
      else if (x < 0.1) lines.push(`  // FIXME: ${sentence(r, 4).toLowerCase()}`);
      else lines.push(`  const ${WORDS[Math.floor(r() * WORDS.length)]}${b} = options.${WORDS[Math.floor(r() * WORDS.length)]} ?? input.length * ${Math.floor(r() * 100)};`);
    }
    lines.push('  return input;', '}', '');
  }
  return lines.join('\n');
}

function logFile(r, day, bytes) {
  const levels = ['INFO', 'INFO', 'INFO', 'WARN', 'ERROR', 'DEBUG'];
  const lines = [];
  let size = 0;
  let sec = 0;
  while (size < bytes) {
    sec += 1 + Math.floor(r() * 20);
    const t = new Date(Date.UTC(2026, 10, day, 0, 0, sec)).toISOString().replace('T', ' ').slice(0, 19);
    const line = `${t} ${levels[Math.floor(r() * levels.length)].padEnd(5)} ${WORDS[Math.floor(r() * WORDS.length)]}: ${sentence(r, 5 + Math.floor(r() * 8))}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

// Sizes in bytes of logs/app-2026-11-DD.log: seven above 20 KiB, five well below it.
const LOG_SIZES = [3_100, 41_000, 8_200, 27_500, 64_000, 12_900, 35_800, 1_400, 52_300, 16_100, 23_900, 30_700];

const PRODUCTS = ['widget', 'gizmo', 'sprocket', 'doohickey', 'gadget'];
const REGIONS = [
  ['north', 24],
  ['south', 61],
  ['east', 140],
  ['west', 37],
  ['central', 95],
];

function csvFile(r, region, rows) {
  const out = ['date,region,product,units,unit_price'];
  for (let i = 0; i < rows; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    out.push(`2026-10-${day},${region},${PRODUCTS[Math.floor(r() * PRODUCTS.length)]},${1 + Math.floor(r() * 40)},${(2 + Math.floor(r() * 4800) / 100).toFixed(2)}`);
  }
  return `${out.join('\n')}\n`;
}

const CONFIGS = {
  'app.json': { name: 'demo', port: 8080, debug: true, workers: 4 },
  'db.json': { host: 'db.internal', port: 5432, pool: { min: 2, max: 20 }, debug: false },
  'cache.json': { backend: 'redis', ttlSeconds: 300, debug: true },
  'queue.json': { backend: 'sqs', visibilityTimeout: 30, deadLetter: true },
  'auth.json': { issuer: 'https://id.example', audience: 'demo', leewaySeconds: 60, debug: false },
  'metrics.json': { exporter: 'prometheus', interval: '15s' },
  'env/staging.json': { extends: '../app.json', debug: true, replicas: 2 },
  'env/production.json': { extends: '../app.json', debug: false, replicas: 6 },
};

/** Writes the workspace into `ws` (wiped first). */
export function makeWorkspace(ws) {
  rmSync(ws, { recursive: true, force: true });
  const r = rng(30);
  const put = (rel, text) => {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), text);
  };
  for (const [name, title, bytes] of DOCS) put(`docs/${name}`, `# ${title}\n\n${paragraphs(r, bytes - title.length - 4)}`.slice(0, bytes));
  for (const name of SOURCES) put(`src/${name}`, sourceFile(r, name));
  LOG_SIZES.forEach((bytes, i) => void put(`logs/app-2026-11-${String(i + 1).padStart(2, '0')}.log`, logFile(r, i + 1, bytes)));
  for (const [region, rows] of REGIONS) put(`data/sales-${region}.csv`, csvFile(r, region, rows));
  for (const [rel, value] of Object.entries(CONFIGS)) put(`config/${rel}`, `${JSON.stringify(value, null, 2)}\n`);
}
