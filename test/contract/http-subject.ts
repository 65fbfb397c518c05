// What the HTTP transports' contract runs share: a subject on the hand-written contract server,
// and per wire (JSON answers, SSE answers, legacy SSE) what it can fail one request for.

import type { Transport } from '../../src/transport.js';
import { startContractHttpServer, type HttpMode } from './http-contract-server.js';
import { CONTRACT_MAX_BYTES, type ContractOptions, type TransportSubject, type Unanswerable } from './transport.contract.js';

export async function httpSubject(mode: HttpMode, make: (url: string) => Transport): Promise<TransportSubject> {
  const server = await startContractHttpServer(mode);
  return {
    transport: make(server.url),
    // Streamable HTTP: the server forgets the session and answers 404; legacy: it ends the stream.
    goAway: async (c) => void c.request('tools/call', { name: 'crash', arguments: {} }).catch(() => {}),
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
    knownBugs: {
      // BUG (http-streamable.ts readJson): a JSON body that does not parse is reported through
      // onerror only; the request it answered is never failed and waits for its timeout.
      'an answer that is garbage fails its request through onfail': 'garbage JSON body not failed',
    },
  },
  sse: {
    garbage: 'between',
    unanswerable: [oversized, { label: 'stream ended before the answer', tool: 'cut', code: 'CONNECTION_CLOSED' }],
  },
  legacy: {
    garbage: 'between',
    // A cut stream is the whole pipe going away on legacy SSE (see the goAway test).
    unanswerable: [oversized],
    knownBugs: {
      // BUG (http-legacy-sse.ts): an SSE event over maxMessageBytes is reported through onerror
      // only. Unlike the stdio transport (responseIdInHead) it never fails the request the event
      // answered, so that call waits for its timeout: "HTTP cannot fail one request", on legacy SSE.
      'a request whose answer cannot come fails at once through onfail: oversized answer': 'oversized event not failed',
    },
  },
};
