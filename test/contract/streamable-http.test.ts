// The Transport contract, run against the Streamable HTTP transport and a hand-written server
// that answers with JSON bodies or with SSE streams (./http-contract-server.ts).

import { StreamableHttpTransport } from '../../src/outbound/http-streamable.js';
import { httpSubject, wireOptions } from './http-subject.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

for (const mode of ['json', 'sse'] as const) {
  transportContract(`Streamable HTTP (${mode} answers)`, () => httpSubject(mode, (url) => new StreamableHttpTransport({ url, maxMessageBytes: CONTRACT_MAX_BYTES })), wireOptions[mode]);
}
