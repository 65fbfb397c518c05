// The connection registry on its own: the capabilities the gateway declares are the ready
// servers' merged (a server that is down adds nothing), and a server is told a log level once.

import type { Session } from '../../../src/router/session.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServers } from '../../helpers/fake-transport.js';
import { RecordingSession, wire, type Wired } from './router-harness.js';

/** The registry routes a request: its owner is a session and that session's client. */
const ownerOf = <S extends Session>(session: S) => ({ session, client: session });

vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

let wired: Wired | undefined;

beforeEach(() => fakeServers.clear());
afterEach(async () => {
  await wired?.close();
  wired = undefined;
});

describe('ConnectionRegistry', () => {
  it('merges the ready servers’ capabilities into one server’s, list_changed always declared', async () => {
    fakeServers.define('a', { capabilities: { tools: {}, logging: {}, tasks: { list: {}, requests: { tools: { call: {} } } } } });
    fakeServers.define('b', { capabilities: { resources: { subscribe: true }, prompts: { listChanged: false }, completions: {}, tasks: { cancel: {} } } });
    wired = wire([
      { name: 'a', command: 'a' },
      { name: 'b', command: 'b' },
      { name: 'down', command: 'missing' },
    ]);
    await wired.connect();
    expect(wired.router.registry.capabilities()).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      logging: {},
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
  });

  it('declares the skills extension with directoryRead only when a ready server declares directoryRead: true, whatever the order', async () => {
    const SKILLS = 'io.modelcontextprotocol/skills';
    fakeServers.define('plain', { capabilities: { extensions: { [SKILLS]: {} } } });
    fakeServers.define('dir', { capabilities: { extensions: { [SKILLS]: { directoryRead: true } } } });
    fakeServers.define('loose', { capabilities: { extensions: { [SKILLS]: { directoryRead: 'yes' } } } });
    wired = wire([
      { name: 'plain', command: 'plain' },
      { name: 'dir', command: 'dir' },
      { name: 'loose', command: 'loose' },
    ]);
    await wired.connect();
    expect(wired.router.registry.capabilities().extensions).toEqual({ [SKILLS]: { directoryRead: true } });
    await wired.close();
    wired = wire([
      { name: 'plain', command: 'plain' },
      { name: 'loose', command: 'loose' },
      { name: 'down', command: 'missing' },
    ]);
    await wired.connect();
    expect(wired.router.registry.capabilities().extensions).toEqual({ [SKILLS]: {} });
  });

  it('tells each server that logs the level once, and again only after it forgot it', async () => {
    fakeServers.define('a', { capabilities: { logging: {} } });
    fakeServers.define('quiet', { capabilities: {} });
    wired = wire([
      { name: 'a', command: 'a' },
      { name: 'quiet', command: 'quiet' },
    ]);
    await wired.connect();
    const { registry } = wired.router;
    await registry.tellLevel('debug');
    await registry.tellLevel('debug');
    expect(
      fakeServers
        .latest('a')
        .requests('logging/setLevel')
        .map((r) => r.params),
    ).toEqual([{ level: 'debug' }]);
    registry.forgetLevel(registry.get('a')!);
    await registry.tellLevel('debug');
    expect(fakeServers.latest('a').requests('logging/setLevel')).toHaveLength(2);
    expect(fakeServers.latest('quiet').requests('logging/setLevel')).toEqual([]);
    // Routing a name stays the registry's alone: no session state is needed for it.
    expect(registry.for('a', ownerOf(new RecordingSession()))).toBe(registry.get('a'));
  });
});
