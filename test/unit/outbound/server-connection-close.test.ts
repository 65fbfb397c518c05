// Closing a connection while it refetches a list (check ends while a server's list_changed is
// being served) is not a failure worth a warning: the close failed the fetch on purpose. And
// `check` can wait for the lists to settle instead of closing half-way through a refetch.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../src/log.js';
import { ServerConnection } from '../../../src/outbound/server-connection.js';
import { fakeServers } from '../../helpers/fake-transport.js';
import { Conditions, serverConfig } from './connection-harness.js';

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });

/** A logger that keeps its warnings. */
function recordingLogger(warnings: string[], onWarn = () => {}): Logger {
  const logger: any = { info() {}, debug() {}, trace() {}, error() {}, child: () => logger };
  logger.warn = (obj: unknown, msg?: string) => {
    warnings.push(typeof obj === 'string' ? obj : `${msg} ${JSON.stringify(obj)}`);
    onWarn();
  };
  return logger as Logger;
}

beforeEach(() => fakeServers.clear());

describe('closing during a refetch', () => {
  it('logs no warning for the fetch the close cut short', async () => {
    fakeServers.define('changing', { tools: [tool('v1')] });
    const warnings: string[] = [];
    const connection = new ServerConnection(serverConfig('changing'), recordingLogger(warnings), {});
    await connection.connect();
    const server = fakeServers.latest('changing');
    server.hold('tools/list');
    server.setList('tools', [tool('v2')]);
    await server.waitFor((m) => m.method === 'tools/list' && server.requests('tools/list').length === 2);
    await connection.close();
    // Give the refetch's rejection its turn: it runs on the microtask queue after close.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });

  it('still warns when a refetch fails while the connection is open', async () => {
    fakeServers.define('flaky', {
      tools: [tool('v1')],
      handlers: { 'tools/list': (_p, call) => (call.server.requests('tools/list').length > 1 ? Promise.reject(new Error('list broke')) : { tools: [tool('v1')] }) },
    } as any);
    const warnings: string[] = [];
    const conditions = new Conditions();
    const connection = new ServerConnection(
      serverConfig('flaky'),
      recordingLogger(warnings, () => conditions.check()),
      {},
    );
    await connection.connect();
    const server = fakeServers.latest('flaky');
    server.setList('tools', [tool('v2')]);
    await conditions.until(() => warnings.length > 0);
    expect(warnings[0]).toMatch(/^refetching tools failed .*list broke/);
    await connection.close();
  });
});

describe('listsSettled', () => {
  it('resolves at once when nothing is being refetched', async () => {
    fakeServers.define('still', { tools: [tool('a')] });
    const connection = new ServerConnection(serverConfig('still'), recordingLogger([]), {});
    await connection.connect();
    await connection.listsSettled();
    expect(connection.lists.tools.map((t) => t.name)).toEqual(['a']);
    await connection.close();
  });

  it('resolves only once the refetches a list_changed started (and the one it asked for again) are done', async () => {
    fakeServers.define('moving', { tools: [tool('v1')] });
    const connection = new ServerConnection(serverConfig('moving'), recordingLogger([]), {});
    await connection.connect();
    const server = fakeServers.latest('moving');
    const release = server.hold('tools/list');
    server.setList('tools', [tool('v2')]);
    await server.waitFor((m) => m.method === 'tools/list' && server.requests('tools/list').length === 2);
    server.setList('tools', [tool('v3')]);
    let settled = false;
    const waiting = connection.listsSettled().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await waiting;
    expect(connection.lists.tools.map((t) => t.name)).toEqual(['v3']);
    await connection.close();
  });

  it('resolves when the connection closes instead', async () => {
    fakeServers.define('stuck', { tools: [tool('v1')] });
    const connection = new ServerConnection(serverConfig('stuck'), recordingLogger([]), {});
    await connection.connect();
    const server = fakeServers.latest('stuck');
    server.hold('tools/list');
    server.setList('tools', [tool('v2')]);
    await server.waitFor((m) => m.method === 'tools/list' && server.requests('tools/list').length === 2);
    const waiting = connection.listsSettled();
    await connection.close();
    await waiting;
  });
});
