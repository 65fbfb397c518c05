// A ServerConnection whose server's list goes over a bound, in simulated time: at start-up or on a
// refetch, over items or bytes the server is failed at once (no retry, items gone, connection
// closed, the reason told), over time it is down and reconnects; a server's own listLimits raise
// the gateway's; and a storm of list_changed is paced.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServers, type FakeHandler } from '../../helpers/fake-transport.js';
import { DEFAULT_LIST_LIMITS, type ListLimits } from '../../../src/outbound/list-fetch.js';
import type { FailureReason } from '../../../src/outbound/failure-reason.js';
import { summarize } from '../../../src/outbound/summary.js';
import { describeServer } from '../../../src/cli/report.js';
import { serverConfig, watched } from './connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });
const limits = (over: Partial<ListLimits>) => () => ({ ...DEFAULT_LIST_LIMITS, ...over });

/** tools/list: the first `small` answers are one small page; then every answer is 10 new tools and a fresh cursor. */
function bombAfter(small: number): FakeHandler {
  let served = 0;
  let made = 0;
  return (params) => {
    if (params.cursor === undefined && served++ < small) return { tools: [tool('a')] };
    return { tools: Array.from({ length: 10 }, () => tool(`b${made++}`)), nextCursor: `c${made}` };
  };
}

beforeEach(() => {
  fakeServers.clear();
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function watch(name: string, over: Partial<ListLimits>, extra: Record<string, unknown> = {}) {
  const downs: FailureReason[] = [];
  const w = watched(serverConfig(name, extra), { listLimits: limits(over) }, { onDown: (_c, reason) => void downs.push(reason) });
  return { w, downs };
}

describe('a list over its bounds', () => {
  it('at start-up: failed at once with the reason, never retried', async () => {
    fakeServers.define('big', { tools: [tool('a')], handlers: { 'tools/list': bombAfter(0) } });
    const { w, downs } = watch('big', { maxListItems: 25 });
    await w.connection.connect();
    expect(w.connection.state).toBe('failed');
    expect(w.connection.problem).toBe('tools/list over limits.maxListItems (25)');
    expect(w.connection.failure).toBe('list_items');
    expect(downs).toEqual(['list_items']);
    // Three pages were asked for (30 items > 25), not one more.
    expect(fakeServers.latest('big').requests('tools/list')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fakeServers.attempts('big')).toBe(1);
    expect(w.connection.lists.tools).toEqual([]);
  });

  it('on a refetch: failed, its items leave at once, its connection is closed, nothing partial is kept', async () => {
    fakeServers.define('bomb', { tools: [tool('a')], handlers: { 'tools/list': bombAfter(1) } });
    const { w, downs } = watch('bomb', { maxListItems: 25 });
    await w.connection.connect();
    expect(w.connection.state).toBe('ready');
    expect(w.connection.lists.tools.map((t) => t.name)).toEqual(['a']);
    const server = fakeServers.latest('bomb');
    server.notify('notifications/tools/list_changed');
    await w.until((c) => c.state === 'failed');
    expect(w.connection.problem).toBe('tools/list over limits.maxListItems (25)');
    expect(downs).toEqual(['list_items']);
    expect(w.connection.listed).toBe(false);
    expect(w.connection.lists.tools).toEqual([]);
    expect(w.changes.at(-1)).toMatchObject({ state: 'failed', listed: false });
    expect(server.closed).toBe(true);
    expect(server.requests('tools/list')).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fakeServers.attempts('bomb')).toBe(1);
    await expect(w.connection.request('ping')).rejects.toMatchObject({ code: 'SERVER_UNAVAILABLE', message: 'server "bomb" is unavailable: tools/list over limits.maxListItems (25)' });
  });

  it('over the bytes of its answers: the same, with its own reason', async () => {
    fakeServers.define('fat', { prompts: Array.from({ length: 50 }, (_, i) => ({ name: `p${i}`, description: 'x'.repeat(200) })) });
    const { w, downs } = watch('fat', { maxListBytes: 4096 });
    await w.connection.connect();
    expect(w.connection.state).toBe('failed');
    expect(w.connection.problem).toBe('prompts/list over limits.maxListBytes (4096 bytes)');
    expect(downs).toEqual(['list_bytes']);
  });

  it('over its time: down like a drop (items kept for the grace period), and reconnecting', async () => {
    let slow = false;
    fakeServers.define('slow', { tools: [tool('a')], handlers: { 'tools/list': (params) => (slow ? new Promise(() => {}) : { tools: [tool(params.cursor ?? 'a')] }) } });
    const { w, downs } = watch('slow', { listFetchTimeoutMs: 5000 });
    await w.connection.connect();
    slow = true;
    fakeServers.latest('slow').notify('notifications/tools/list_changed');
    // (Deadlines fire on a coarse tick: step until the fetch's is past.)
    for (let i = 0; i < 100 && w.connection.state === 'ready'; i++) await vi.advanceTimersByTimeAsync(100);
    expect(w.connection.state).toBe('backing-off');
    expect(w.connection.problem).toBe('tools/list took longer than limits.listFetchTimeout (5s)');
    expect(downs).toEqual(['list_time']);
    expect(w.connection.listed).toBe(true);
    slow = false;
    await vi.advanceTimersByTimeAsync(1000);
    await w.until((c) => c.state === 'ready');
    expect(fakeServers.attempts('slow')).toBe(2);
  });

  it("a server's own listLimits raise the gateway's for it alone", async () => {
    const tools = Array.from({ length: 40 }, (_, i) => tool(`t${i}`));
    fakeServers.define('large', { tools });
    fakeServers.define('other', { tools });
    const large = watch('large', { maxListItems: 25 }, { listLimits: { maxItems: 50 } });
    const other = watch('other', { maxListItems: 25 });
    await Promise.all([large.w.connection.connect(), other.w.connection.connect()]);
    expect(large.w.connection.state).toBe('ready');
    expect(large.w.connection.lists.tools).toHaveLength(40);
    expect(other.w.connection.state).toBe('failed');
  });
});

describe('a list near its bounds', () => {
  it('is told in the summary, for check and status, while the server is ready', async () => {
    fakeServers.define('near', { tools: Array.from({ length: 22 }, (_, i) => tool(`t${i}`)), prompts: [{ name: 'p' }] });
    const { w } = watch('near', { maxListItems: 25 });
    await w.connection.connect();
    expect(w.connection.state).toBe('ready');
    const [s] = summarize([w.connection]);
    expect(s!.nearBounds).toBe('tools 22 of limits.maxListItems (25)');
    expect(describeServer(s!)).toMatch(/; near its list bounds: tools 22 of limits\.maxListItems \(25\)$/);
  });

  it('a failed server says why in its summary, in a word for machines too', async () => {
    fakeServers.define('over', { tools: Array.from({ length: 30 }, (_, i) => tool(`t${i}`)) });
    const { w } = watch('over', { maxListItems: 25 });
    await w.connection.connect();
    const [s] = summarize([w.connection]);
    expect(s).toMatchObject({ state: 'failed', problem: 'tools/list over limits.maxListItems (25)', reason: 'list_items' });
    expect(describeServer(s!)).toBe('over: failed — tools/list over limits.maxListItems (25)');
  });
});

describe('a storm of list_changed', () => {
  it('is fetched at a doubling interval, not after every announcement', async () => {
    let version = 0;
    const handlers: Record<string, FakeHandler> = {
      'tools/list': (_p, call) => {
        version++;
        // Announces a change again right after every fetch it serves.
        queueMicrotask(() => call.server.notify('notifications/tools/list_changed'));
        return { tools: [tool(`v${version}`)] };
      },
    };
    fakeServers.define('storm', { tools: [tool('a')], handlers });
    const { w } = watch('storm', { listRefetchIntervalMs: 1000, listRefetchMaxIntervalMs: 8000 });
    await w.connection.connect();
    await vi.advanceTimersByTimeAsync(60_000);
    // Start-up, the announcement after it at once, then 1 + 2 + 4 + 8 × 6 s ... within a minute.
    const fetches = fakeServers.latest('storm').requests('tools/list').length;
    expect(fetches).toBeGreaterThanOrEqual(8);
    expect(fetches).toBeLessThanOrEqual(12);
    expect(w.connection.state).toBe('ready');
  });
});
