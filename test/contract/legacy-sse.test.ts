// The Transport contract, run against the legacy HTTP+SSE transport (2024-11-05): every answer
// comes on the one GET stream, so the end of that stream is the server going away.

import { LegacySseTransport } from '../../src/outbound/http-legacy-sse.js';
import { httpSubject, wireOptions } from './http-subject.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

transportContract('legacy HTTP+SSE', () => httpSubject('legacy', (url) => new LegacySseTransport({ url, maxMessageBytes: CONTRACT_MAX_BYTES })), wireOptions.legacy);
