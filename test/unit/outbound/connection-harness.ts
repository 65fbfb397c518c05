// Configs and ServerConnections on fake servers for in-process tests (outbound, router, inbound),
// with a way to wait for a connection's events instead of sleeping. Every test file that uses
// it must swap the stdio transport for the fakes itself (vi.mock is per file):
//   vi.mock('../../../src/outbound/stdio-transport.js', async () => (await import('../../helpers/fake-transport.js')).fakeStdioModule());

import { stringify } from 'yaml';
import { parseConfig } from '../../../src/config/load.js';
import type { GatewayConfig, ServerConfig } from '../../../src/config/types.js';
import { silentLogger } from '../../../src/log.js';
import { ServerConnection, type ServerConnectionEvents, type ServerConnectionOptions } from '../../../src/outbound/server-connection.js';
import type { JsonRpcNotification } from '../../../src/protocol/jsonrpc.js';
import type { ListKind } from '../../../src/protocol/mcp.js';

/** A whole gateway config from a plain object (YAML keys); each server's `command` names its fake. */
export function gatewayConfig(config: Record<string, unknown>): GatewayConfig {
  return parseConfig(stringify(config), { baseDir: '/switchboard', env: {} });
}

/** One stdio server entry whose command is its name: `fakeServers.define(name, ...)` scripts it. */
export function serverConfig(name: string, extra: Record<string, unknown> = {}): ServerConfig {
  return gatewayConfig({ servers: [{ name, command: name, ...extra }] }).servers[0]!;
}

/** Resolves `until()` promises whenever an event may have made their condition true. */
export class Conditions {
  private readonly waiting: Array<{ pred: () => boolean; resolve: () => void }> = [];

  until(pred: () => boolean): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ pred, resolve }));
  }

  check(): void {
    for (const w of this.waiting.filter((w) => w.pred())) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve();
    }
  }
}

export interface Watched<O = never> {
  connection: ServerConnection<O>;
  /** Every onChange, with the connection's state and `listed` at that moment. */
  changes: Array<{ kinds: readonly ListKind[]; state: string; listed: boolean; at: number }>;
  reconnects: number;
  notifications: Array<{ notification: JsonRpcNotification; owner?: O }>;
  /** Resolves once `pred` holds, checked after each event of the connection. */
  until(pred: (c: ServerConnection<O>) => boolean): Promise<void>;
}

/** A ServerConnection whose events are recorded (and optionally passed on to `events`). */
export function watched<O = never>(config: ServerConfig, options: ServerConnectionOptions<O> = {}, events: ServerConnectionEvents<O> = {}): Watched<O> {
  const conditions = new Conditions();
  const w: Watched<O> = {
    connection: undefined as unknown as ServerConnection<O>,
    changes: [],
    reconnects: 0,
    notifications: [],
    until: (pred) => conditions.until(() => pred(w.connection)),
  };
  w.connection = new ServerConnection<O>(
    config,
    silentLogger(),
    {
      ...events,
      onChange: (c, kinds) => {
        w.changes.push({ kinds, state: c.state, listed: c.listed, at: Date.now() });
        events.onChange?.(c, kinds);
        conditions.check();
      },
      onReconnect: (c) => {
        w.reconnects++;
        events.onReconnect?.(c);
        conditions.check();
      },
      onNotification: (c, notification, owner) => {
        w.notifications.push({ notification, owner });
        events.onNotification?.(c, notification, owner);
        conditions.check();
      },
    },
    options,
  );
  return w;
}
