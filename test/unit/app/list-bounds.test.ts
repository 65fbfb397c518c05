// The app and a server over its list bounds: the others serve on, the catalog holds none of its
// items, and a reload that raises the bound gives it another start (one that changes nothing
// else leaves it failed).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/app/app.js';
import { silentLogger } from '../../../src/log.js';
import { fakeServers } from '../../helpers/fake-transport.js';
import { gatewayConfig } from '../outbound/connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `${name} things`, inputSchema: { type: 'object' } });
let app: App | undefined;

beforeEach(() => {
  fakeServers.clear();
  fakeServers.define('big', { tools: Array.from({ length: 30 }, (_, i) => tool(`t${i}`)) });
  fakeServers.define('calm', { tools: [tool('echo')] });
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const config = (maxListItems: number, extra: Record<string, unknown> = {}) =>
  gatewayConfig({
    limits: { maxListItems, ...extra },
    servers: [
      { name: 'big', command: 'big' },
      { name: 'calm', command: 'calm' },
    ],
  });

describe('a server over its list bounds', () => {
  it('is failed while the others serve; a reload that raises the bound starts it again', async () => {
    app = new App(config(25), silentLogger());
    await app.start();
    expect(app.summary().map((s) => [s.name, s.state, s.reason])).toEqual([
      ['big', 'failed', 'list_items'],
      ['calm', 'ready', undefined],
    ]);
    expect(app.catalog.lists.tools.entries.map((e) => e.key)).toEqual(['calm__echo']);

    await app.reload(config(25, { maxCallsPerServer: 100 }));
    expect(fakeServers.attempts('big')).toBe(1);
    expect(app.summary()[0]!.state).toBe('failed');

    const plan = await app.reload(config(50));
    expect(plan.restarted.map((s) => s.name)).toEqual(['big']);
    expect(app.summary()[0]!.state).toBe('ready');
    expect(app.catalog.lists.tools.entries).toHaveLength(31);
    expect(fakeServers.attempts('calm')).toBe(1);
  });
});
