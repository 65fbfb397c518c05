// Which era a ServerConnection speaks, in process on fake stdio servers and a fake clock: the
// server/discover probe and what each answer (or silence, or death) means, the verdict kept for
// reconnects, and `protocol` pinning it. See server-connection-stateless.test.ts for what a modern
// connection then does.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eraCache } from '../../../src/outbound/era.js';
import { PROBE_TIMEOUT_MS } from '../../../src/outbound/handshake.js';
import { fakeServers, type FakeCall, type FakeServerScript } from '../../helpers/fake-transport.js';
import { serverConfig, watched } from './connection-harness.js';
import { VERSION, env, statelessServer, rpcError } from './stateless-fake.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });
const legacy: FakeServerScript = { tools: [tool('old')] };
const methods = (name: string, instance = 1) => fakeServers.instances(name)[instance - 1]!.received.map((m: any) => m.method);

beforeEach(() => {
  fakeServers.clear();
  eraCache.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('era detection (stdio)', () => {
  it('a server that answers server/discover is modern: no initialize, identity from discover, the envelope on every request', async () => {
    fakeServers.define('m', statelessServer({ tools: [tool('t')], instructions: 'Use m.', serverInfo: { name: 'm-server', version: '3.0.0' } }));
    const w = watched(serverConfig('m'), { clientCapabilities: { roots: {}, sampling: {} } });
    await w.connection.connect();
    expect(w.connection).toMatchObject({
      state: 'ready',
      era: 'stateless',
      protocolVersion: VERSION,
      instructions: 'Use m.',
      serverInfo: { name: 'm-server', version: '3.0.0' },
      capabilities: { tools: { listChanged: true } },
    });
    expect(w.connection.lists.tools.map((t) => t.name)).toEqual(['t']);
    const server = fakeServers.latest('m');
    const sent = server.received.filter((m: any) => m.id !== undefined);
    expect(sent.map((m: any) => m.method)).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'subscriptions/listen']));
    for (const m of sent) {
      expect(m.params._meta, m.method).toMatchObject({ [env.version]: VERSION, [env.caps]: { roots: {}, sampling: {} }, [env.info]: { name: 'switchboard' } });
    }
    expect(server.received.map((m: any) => m.method)).not.toContain('initialize');
    expect(server.received.map((m: any) => m.method)).not.toContain('notifications/initialized');
  });

  it('a server that answers -32601 is legacy: initialize follows on the same process', async () => {
    fakeServers.define('old', legacy);
    const w = watched(serverConfig('old'));
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'ready', era: 'stateful' });
    expect(fakeServers.instances('old')).toHaveLength(1);
    expect(methods('old').slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it('a server that exits on the probe is started again, is never probed again, and its reconnects skip the probe', async () => {
    const dies: FakeServerScript = { ...legacy, handlers: { 'server/discover': (_p, call) => (call.server.drop(), new Promise(() => {})) } };
    fakeServers.define('rmcp', dies);
    const w = watched(serverConfig('rmcp'));
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'ready', era: 'stateful', problem: undefined });
    expect(fakeServers.instances('rmcp')).toHaveLength(2);
    expect(methods('rmcp', 1)).toEqual(['server/discover']);
    expect(methods('rmcp', 2).slice(0, 2)).toEqual(['initialize', 'notifications/initialized']);
    // A drop: the reconnect remembers the verdict.
    fakeServers.latest('rmcp').drop();
    await w.until((c) => c.state === 'backing-off');
    await vi.runOnlyPendingTimersAsync();
    await w.until((c) => c.state === 'ready');
    expect(fakeServers.instances('rmcp')).toHaveLength(3);
    expect(methods('rmcp', 3)[0]).toBe('initialize');
  });

  it('a server that ignores the probe gets initialize on the same process once the probe timeout is over', async () => {
    fakeServers.define('quiet', { ...legacy, handlers: { 'server/discover': () => new Promise(() => {}) } });
    const w = watched(serverConfig('quiet'));
    const connecting = w.connection.connect();
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 100);
    expect(methods('quiet')).toEqual(['server/discover']);
    expect(w.connection.state).toBe('connecting');
    await vi.advanceTimersByTimeAsync(200);
    await connecting;
    expect(w.connection).toMatchObject({ state: 'ready', era: 'stateful' });
    expect(fakeServers.instances('quiet')).toHaveLength(1);
    expect(methods('quiet').slice(0, 3)).toEqual(['server/discover', 'notifications/cancelled', 'initialize']);
  });

  it('-32022 naming 2026-07-28 is a modern answer: discover is asked once more', async () => {
    let asked = 0;
    const discover = (_p: unknown, call: FakeCall) => {
      if (asked++ === 0) return rpcError(call, -32022, 'Unsupported protocol version', { supported: [VERSION], requested: VERSION });
      return { resultType: 'complete', supportedVersions: [VERSION], capabilities: {} };
    };
    fakeServers.define('picky', statelessServer({ discover }));
    const w = watched(serverConfig('picky'));
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'ready', era: 'stateless' });
    expect(methods('picky')).toEqual(['server/discover', 'server/discover']);
  });

  it('a modern error the gateway cannot go on from fails the attempt; it does not fall back to initialize', async () => {
    fakeServers.define('newer', statelessServer({ discover: (_p, call) => rpcError(call, -32022, 'Unsupported', { supported: ['2027-01-01'], requested: VERSION }) }));
    const w = watched(serverConfig('newer'), { reconnect: false });
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'failed', problem: expect.stringContaining('no protocol revision in common') });
    expect(methods('newer')).not.toContain('initialize');
  });

  it('a legacy verdict is kept for the process, and an upgraded server that refuses initialize with -32022 is then spoken to as modern', async () => {
    fakeServers.define('upgraded', legacy);
    const first = watched(serverConfig('upgraded'));
    await first.connection.connect();
    await first.connection.close();
    fakeServers.define('upgraded', statelessServer({ tools: [tool('new')], modernOnly: true }));
    const second = watched(serverConfig('upgraded'));
    await second.connection.connect();
    expect(second.connection).toMatchObject({ state: 'ready', era: 'stateless' });
    expect(second.connection.lists.tools.map((t) => t.name)).toEqual(['new']);
    // Straight to initialize (the verdict), then discover on the same process.
    expect(methods('upgraded', 2).slice(0, 2)).toEqual(['initialize', 'server/discover']);
  });
});

describe('protocol pinned in the config', () => {
  // `legacy` is the old spelling of `stateful`, still accepted.
  it.each(['stateful', 'legacy'])('%s: never probes', async (protocol) => {
    const name = `pinned-old-${protocol}`;
    fakeServers.define(name, legacy);
    const w = watched(serverConfig(name, { protocol }));
    expect(w.connection.config.protocol).toBe('stateful');
    await w.connection.connect();
    expect(w.connection.era).toBe('stateful');
    expect(methods(name)[0]).toBe('initialize');
    expect(methods(name)).not.toContain('server/discover');
  });

  it('2026-07-28: a legacy server fails with PROTOCOL_MISMATCH instead of getting initialize', async () => {
    fakeServers.define('not-modern', legacy);
    const w = watched(serverConfig('not-modern', { protocol: '2026-07-28' }), { reconnect: false });
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'failed', problem: expect.stringContaining('does not speak 2026-07-28') });
    expect(methods('not-modern')).toEqual(['server/discover']);
  });

  it('2026-07-28: a modern server is spoken to as such', async () => {
    fakeServers.define('pinned-new', statelessServer({ tools: [] }));
    const w = watched(serverConfig('pinned-new', { protocol: '2026-07-28' }));
    await w.connection.connect();
    expect(w.connection).toMatchObject({ state: 'ready', era: 'stateless' });
  });
});
