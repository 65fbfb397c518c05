// With no HTTP face (stdio only), the connect pages get a listener of their own on 127.0.0.1, port
// chosen by the system, started on the first link. Only /connect/ is served, and only to a Host of
// that address and port (a page elsewhere cannot reach it through DNS rebinding).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendMessage } from './html.js';
import { pathOf } from './http.js';

export interface LoopbackPages {
  readonly base: string;
  close(): Promise<void>;
}

export async function startLoopbackPages(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackPages> {
  let hosts = new Set<string>();
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    if (!hosts.has(req.headers.host ?? '')) return sendMessage(res, 403, 'Forbidden', 'This page is served to this computer only.');
    if (!pathOf(req).startsWith('/connect/')) return sendMessage(res, 404, 'Not found', 'There is nothing here.');
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
