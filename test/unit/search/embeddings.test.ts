import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolSearchIndex, type ToolDoc } from '../../../src/search/index.js';
import { HybridSearcher, cosine, fuseRankings } from '../../../src/search/embeddings.js';

// A fake OpenAI-compatible embeddings endpoint: each vector counts words per meaning, and
// words of one meaning share a dimension, so "automobile" lands where "car" does.
const MEANINGS = [
  ['car', 'cars', 'automobile', 'vehicle', 'vehicles'],
  ['invoice', 'bill', 'bills', 'invoices'],
  ['weather', 'forecast', 'rain'],
  ['list', 'show', 'inventory'],
];
function embed(text: string): number[] {
  const v = new Array(MEANINGS.length + 1).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    const i = MEANINGS.findIndex((m) => m.includes(w));
    v[i >= 0 ? i : MEANINGS.length] += i >= 0 ? 1 : 0.01;
  }
  return v;
}

type Mode = 'ok' | 'error' | 'hang' | 'garbage';
let mode: Mode = 'ok';
let requests: { inputs: string[]; model: string; auth: string | undefined }[] = [];
let server: Server;
let url: string;

async function body(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const { input, model } = JSON.parse(await body(req)) as { input: string[]; model: string };
    requests.push({ inputs: input, model, auth: req.headers.authorization });
    if (req.url !== '/v1/embeddings') return void res.writeHead(404).end();
    if (mode === 'hang') return; // never answers: the client's deadline must fire
    if (mode === 'error') return void res.writeHead(500).end('{"error":"down"}');
    const data = mode === 'garbage' ? [{ embedding: 'nope' }] : input.map((t, index) => ({ index, embedding: embed(t) }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let cacheDir: string;
beforeEach(() => {
  mode = 'ok';
  requests = [];
  cacheDir = mkdtempSync(join(tmpdir(), 'sb-embed-'));
  return () => rmSync(cacheDir, { recursive: true, force: true });
});

const DOCS: ToolDoc[] = [
  { key: 'garage__list_cars', server: 'garage', name: 'list_cars', description: 'Show every car parked in the garage.' },
  { key: 'billing__send_invoice', server: 'billing', name: 'send_invoice', description: 'Email an invoice to a customer.' },
  { key: 'meteo__get_forecast', server: 'meteo', name: 'get_forecast', description: 'Rain and sun for the next days.' },
  { key: 'github__create_issue', server: 'github', name: 'create_issue', description: 'Create a new issue in a repository.' },
];

function hybrid(extra: Partial<Parameters<typeof makeHybrid>[0]> = {}): HybridSearcher {
  return makeHybrid({ url, model: 'fake-1', cacheDir, timeoutMs: 1000, headers: { authorization: 'Bearer secret' }, ...extra });
}
function makeHybrid(config: ConstructorParameters<typeof HybridSearcher>[1]): HybridSearcher {
  const h = new HybridSearcher(new ToolSearchIndex(), config);
  for (const d of DOCS) h.upsert(d);
  return h;
}

describe('HybridSearcher', () => {
  it('finds by meaning what the words alone miss, and keeps the lexical hits', async () => {
    const h = hybrid();
    expect(await h.refresh()).toBe(0);
    const lexical = new ToolSearchIndex();
    for (const d of DOCS) lexical.upsert(d);
    expect(lexical.search('automobile inventory')).toEqual([]);
    expect((await h.search('automobile inventory', { limit: 3 }))[0]?.key).toBe('garage__list_cars');
    expect((await h.search('create an issue', { limit: 3 })).map((x) => x.key)).toContain('github__create_issue');
    expect(requests.every((r) => r.model === 'fake-1' && r.auth === 'Bearer secret')).toBe(true);
  });

  it('never returns a key the profile rejects, from either ranking', async () => {
    const h = hybrid();
    await h.refresh();
    const hits = await h.search('automobile inventory list', { limit: 5, accept: (k) => k !== 'garage__list_cars' });
    expect(hits.map((x) => x.key)).not.toContain('garage__list_cars');
  });

  it('caches tool vectors on disk by content: a restart asks only for what changed', async () => {
    await hybrid().refresh();
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(DOCS.length);
    requests = [];
    const again = hybrid();
    expect(await again.refresh()).toBe(0);
    expect(requests).toHaveLength(0);
    again.upsert({ ...DOCS[0]!, description: 'Show every vehicle in the garage.' });
    await again.refresh();
    expect(requests.flatMap((r) => r.inputs)).toEqual([expect.stringContaining('vehicle')]);
    requests = [];
    await hybrid({ model: 'fake-2' }).refresh();
    expect(requests.flatMap((r) => r.inputs)).toHaveLength(DOCS.length);
  });

  it('falls back to the lexical ranking when the endpoint fails, then leaves it alone for a while', async () => {
    let now = 0;
    const h = hybrid({ now: () => now, cooldownMs: 30_000 });
    await h.refresh();
    const lexical = new ToolSearchIndex();
    for (const d of DOCS) lexical.upsert(d);
    mode = 'error';
    requests = [];
    expect(await h.search('create an issue about rain')).toEqual(lexical.search('create an issue about rain'));
    expect(requests).toHaveLength(1);
    expect(await h.search('send the bill')).toEqual(lexical.search('send the bill'));
    expect(requests).toHaveLength(1); // cooling down: not asked again
    now += 30_000;
    mode = 'ok';
    await h.search('send the bill');
    expect(requests).toHaveLength(2);
  });

  it('gives up on a slow endpoint at its deadline and answers lexically', async () => {
    const h = hybrid({ timeoutMs: 100 });
    mode = 'hang';
    expect(await h.refresh()).toBe(DOCS.length);
    const lexical = new ToolSearchIndex();
    for (const d of DOCS) lexical.upsert(d);
    const h2 = hybrid({ timeoutMs: 100 });
    expect(await h2.search('create an issue')).toEqual(lexical.search('create an issue'));
  });

  it('treats a malformed answer or a closed port as a failure, never as results', async () => {
    mode = 'garbage';
    const h = hybrid();
    expect(await h.refresh()).toBe(DOCS.length);
    expect((await h.search('create issue'))[0]?.key).toBe('github__create_issue');
    const closed = makeHybrid({ url: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 1000 });
    expect(await closed.refresh()).toBe(DOCS.length);
    expect((await closed.search('create issue'))[0]?.key).toBe('github__create_issue');
  });

  it('syncs a server: gone tools leave both rankings, new ones get vectors', async () => {
    const h = hybrid();
    await h.refresh();
    requests = [];
    h.syncServer('garage', [{ key: 'garage__list_vans', server: 'garage', name: 'list_vans', description: 'Show every vehicle.' }]);
    expect(await h.refresh()).toBe(0);
    expect(requests.flatMap((r) => r.inputs)).toEqual([expect.stringContaining('list_vans')]);
    const keys = (await h.search('automobile inventory', { limit: 10 })).map((x) => x.key);
    expect(keys).toContain('garage__list_vans');
    expect(keys).not.toContain('garage__list_cars');
  });

  it('forgets removed tools', async () => {
    const h = hybrid();
    await h.refresh();
    expect(h.remove('garage__list_cars')).toBe(true);
    expect((await h.search('automobile inventory')).map((x) => x.key)).not.toContain('garage__list_cars');
  });
});

describe('fusion and similarity', () => {
  it('fuses by reciprocal rank: agreement wins, ties break by key', () => {
    const fused = fuseRankings(
      [
        ['a', 'b', 'c'],
        ['b', 'c', 'd'],
      ],
      4,
      60,
    );
    expect(fused.map((x) => x.key)).toEqual(['b', 'c', 'a', 'd']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fuseRankings([['x'], ['y']], 2).map((h) => h.key)).toEqual(['x', 'y']);
  });

  it('computes cosine similarity, 0 for a zero vector', () => {
    expect(cosine(Float32Array.from([1, 0]), Float32Array.from([2, 0]))).toBeCloseTo(1);
    expect(cosine(Float32Array.from([1, 0]), Float32Array.from([0, 3]))).toBeCloseTo(0);
    expect(cosine(Float32Array.from([0, 0]), Float32Array.from([1, 1]))).toBe(0);
  });
});
