// The redirect target of an interactive login: an HTTP listener on 127.0.0.1 (never 0.0.0.0)
// that accepts GET /callback once. A callback whose `state` is missing or wrong is discarded
// (answered 400, the login keeps waiting), as the spec asks; the listener closes when done.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  redirectUri: string;
  /** The callback's query parameters once one arrives carrying `state`. */
  wait(state: string, signal?: AbortSignal): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PAGE_OK = '<!doctype html><title>Switchboard</title><p>Authorization received. You can close this window.</p>';
const PAGE_BAD = '<!doctype html><title>Switchboard</title><p>This response does not belong to a login in progress.</p>';

export async function startLoopback(port = 0, path = '/callback'): Promise<Loopback> {
  let expected: string | undefined;
  let deliver: ((params: URLSearchParams) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const state = url.searchParams.get('state');
    if (expected === undefined || state !== expected || !deliver) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_BAD);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(PAGE_OK);
    const d = deliver;
    deliver = undefined;
    d(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return {
    redirectUri: `http://127.0.0.1:${actual}${path}`,
    close,
    wait(state, signal) {
      expected = state;
      return new Promise<URLSearchParams>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          deliver = undefined;
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        deliver = (params) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(params);
        };
      });
    },
  };
}
