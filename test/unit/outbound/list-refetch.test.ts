// ListRefetcher: one fetch per list at a time, exactly one more for any number of changes announced
// meanwhile, changes announced while connecting fetched once ready, and settled() waiting for all.
import { describe, expect, it } from 'vitest';
import { ListRefetcher, type RefetchHost } from '../../../src/outbound/list-refetch.js';
import type { ListKind } from '../../../src/protocol/mcp.js';

function host(readiness: ReturnType<RefetchHost['readiness']> = 'go') {
  const started: ListKind[] = [];
  const finish: (() => void)[] = [];
  const fetched: ListKind[] = [];
  const h = {
    state: readiness,
    readiness: () => h.state,
    fetch: (kind: ListKind) => {
      started.push(kind);
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    fetched: (kind: ListKind) => void fetched.push(kind),
    failed: () => {},
  };
  /** Ends the oldest fetch in flight and lets its continuations run. */
  const endOne = async () => {
    finish.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { h, started, fetched, endOne };
}

describe('ListRefetcher', () => {
  it('fetches once more, once, for any number of changes announced while a fetch runs', async () => {
    const { h, started, fetched, endOne } = host();
    const r = new ListRefetcher(h);
    r.request('tools');
    r.request('tools');
    r.request('tools');
    r.request('prompts');
    expect(started).toEqual(['tools', 'prompts']);
    await endOne();
    expect(started).toEqual(['tools', 'prompts', 'tools']);
    await endOne();
    await endOne();
    expect(started).toHaveLength(3);
    expect(fetched).toEqual(['tools', 'prompts', 'tools']);
  });

  it('holds changes announced while connecting until resume(), and drops them when not connected', async () => {
    const { h, started } = host('wait');
    const r = new ListRefetcher(h);
    r.request('resources');
    expect(started).toEqual([]);
    h.state = 'go';
    r.resume();
    expect(started).toEqual(['resources']);
    h.state = 'drop';
    r.request('tools');
    expect(started).toEqual(['resources']);
  });

  it('settles only when nothing is in flight or due', async () => {
    const { h, endOne } = host();
    const r = new ListRefetcher(h);
    await r.settled(true);
    r.request('tools');
    r.request('tools');
    let settled = false;
    void r.settled(true).then(() => (settled = true));
    await endOne();
    expect(settled).toBe(false);
    await endOne();
    expect(settled).toBe(true);
  });
});
