// The Transport contract, run against the auto transport: on a Streamable HTTP server it stays
// there; on a legacy server its first POST is refused (405) and it falls back to HTTP+SSE. Either
// way it must keep every promise of the wire it settled on.

import { AutoHttpTransport } from '../../src/outbound/http-auto.js';
import { httpSubject, wireOptions } from './http-subject.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

for (const mode of ['json', 'sse', 'legacy'] as const) {
  transportContract(
    `auto (on a ${mode === 'legacy' ? 'legacy SSE server' : `Streamable HTTP server, ${mode} answers`})`,
    () => httpSubject(mode, (url) => new AutoHttpTransport({ url, maxMessageBytes: CONTRACT_MAX_BYTES })),
    wireOptions[mode],
  );
}
