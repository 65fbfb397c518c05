// Heap snapshots of the gateway for the soak run (`--heap-snapshots`): the gateway is started with
// --heapsnapshot-signal=SIGUSR2, so a signal makes it collect garbage and write its live heap to a
// file. Comparing two snapshots tells a leak (live objects piling up) from a heap that is merely
// large (RSS alone cannot).

import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './procs.mjs';

export const HEAP_SIGNAL_OPTION = '--heapsnapshot-signal=SIGUSR2';

/** Signals `pid` and resolves with the path of the snapshot it wrote into `dir` (its cwd). */
export async function takeHeapSnapshot(pid, dir, timeoutMs = 120_000) {
  const before = new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  let file;
  let lastSize = -1;
  let stableSince = 0;
  // The file appearing and its size settling are OS facts: polled.
  while (Date.now() < deadline) {
    await sleep(200);
    file ??= readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && f.includes(`.${pid}.`) && !before.has(f));
    if (!file) continue;
    const size = statSync(join(dir, file)).size;
    if (size > 0 && size === lastSize) {
      if (Date.now() - stableSince >= 1000 && endsLikeJson(join(dir, file))) return join(dir, file);
    } else {
      lastSize = size;
      stableSince = Date.now();
    }
  }
  throw new Error(`no complete heap snapshot from pid ${pid} within ${timeoutMs} ms`);
}

function endsLikeJson(path) {
  const text = readFileSync(path, 'latin1');
  return text.trimEnd().endsWith('}');
}

/** Live heap by constructor/type name: { nodes, bytes, byName: Map<name, { count, bytes }> }. */
export function summarizeSnapshot(path, { remove = true } = {}) {
  const snap = JSON.parse(readFileSync(path, 'utf8'));
  if (remove) rmSync(path, { force: true });
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const { nodes, strings } = snap;
  const byName = new Map();
  let bytes = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    bytes += size;
    // Objects and closures by their constructor / function name; everything else by its type.
    const name = type === 'object' || type === 'closure' ? `${type === 'closure' ? 'closure ' : ''}${strings[nodes[i + nameAt]]}` : `(${type})`;
    let entry = byName.get(name);
    if (!entry) byName.set(name, (entry = { count: 0, bytes: 0 }));
    entry.count++;
    entry.bytes += size;
  }
  return { nodes: nodes.length / width, bytes, byName };
}

/** The names whose live count or size grew most between two summaries. */
export function heapGrowth(a, b, top = 10) {
  const rows = [];
  for (const [name, after] of b.byName) {
    const before = a.byName.get(name) ?? { count: 0, bytes: 0 };
    rows.push({ name, count: after.count - before.count, bytes: after.bytes - before.bytes, countAfter: after.count });
  }
  return rows.sort((x, y) => y.bytes - x.bytes).slice(0, top);
}
