// What the HTTP transports' contract runs share: a subject on the hand-written contract server,
// and per wire (JSON answers, SSE answers, legacy SSE) what it can fail one request for.

import type { Transport } from '../../src/transport.js';
import { startContractHttpServer, type HttpMode } from './http-contract-server.js';
import { CONTRACT_MAX_BYTES, type ContractOptions, type TransportSubject, type Unanswerable } from './transport.contract.js';

export async function httpSubject(mode: HttpMode, make: (url: string) => Transport): Promise<TransportSubject> {
  const server = await startContractHttpServer(mode);
  return {
    transport: make(server.url),
    // Streamable HTTP: the server forgets the session and answers 404; legacy: it ends the stream;
    // 2026-07-28: it stops listening, which the next request finds out.
    goAway: async (c) => {
      const crash = c.request('tools/call', { name: 'crash', arguments: {} }).catch(() => {});
      if (!mode.startsWith('modern')) return;
      await crash;
      await c.request('tools/call', { name: 'echo', arguments: { text: 'anyone?' } }).catch(() => {});
    },
    released: () => server.socketsClosed(),
    dispose: () => server.close(),
  };
}

export const oversized: Unanswerable = { label: 'oversized answer', tool: 'big', args: { bytes: 2 * CONTRACT_MAX_BYTES }, code: 'MESSAGE_TOO_LARGE' };

/** What each wire can fail one request for, and the known bugs that keep it from doing so. */
export const wireOptions: Record<HttpMode, ContractOptions> = {
  json: {
    garbage: 'instead',
    unanswerable: [oversized, { label: 'body cut short', tool: 'cut', code: 'HTTP_ERROR' }],
  },
  sse: {
    garbage: 'between',
    unanswerable: [oversized, { label: 'stream ended before the answer', tool: 'cut', code: 'CONNECTION_CLOSED' }],
  },
  'modern-json': {
    garbage: 'instead',
    unanswerable: [oversized, { label: 'body cut short', tool: 'cut', code: 'HTTP_ERROR' }],
  },
  'modern-sse': {
    garbage: 'between',
    unanswerable: [oversized, { label: 'stream ended before the answer', tool: 'cut', code: 'CONNECTION_CLOSED' }],
  },
  legacy: {
    garbage: 'between',
    // A cut stream is the whole pipe going away on legacy SSE (see the goAway test).
    unanswerable: [oversized],
  },
};
