// The Transport contract, run against the Streamable HTTP transport of 2026-07-28 and the
// hand-written server's stateless mode (./http-contract-server.ts), which refuses a POST whose
// MCP-Protocol-Version or Mcp-Method header is missing or wrong, or that carries a session id.

import { StatelessHttpTransport } from '../../src/outbound/http-stateless.js';
import { httpSubject, wireOptions } from './http-subject.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

for (const mode of ['modern-json', 'modern-sse'] as const) {
  transportContract(
    `Streamable HTTP 2026-07-28 (${mode === 'modern-json' ? 'json' : 'sse'} answers)`,
    () => httpSubject(mode, (url) => new StatelessHttpTransport({ url, protocolVersion: '2026-07-28', maxMessageBytes: CONTRACT_MAX_BYTES })),
    wireOptions[mode],
  );
}
