// The Transport contract, run against the in-memory fake the in-process tests use: the fake must
// behave like the real pipes, or tests built on it prove nothing.

import { GatewayError } from '../../src/errors.js';
import { FakeMcpServer, FakeTransport, type FakeHandler } from '../helpers/fake-transport.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

/** The misbehaving fixture's tools, on the fake server. */
const tools: FakeHandler = (params, call) => {
  const args = params.arguments ?? {};
  switch (params.name) {
    case 'slow':
      call.progress(0, 1);
      call.progress(1, 1);
      return { content: [{ type: 'text', text: `slept ${args.ms ?? 0}` }] };
    case 'garbage':
      call.server.transport.deliver('this is not JSON {{{');
      return { content: [{ type: 'text', text: 'ok after garbage' }] };
    case 'big':
      return { content: [{ type: 'text', text: 'x'.repeat(args.bytes) }] };
    case 'lost':
      // The transport knows this answer cannot come (an HTTP stream that ended, say).
      call.server.transport.fail(call.id, new GatewayError('CONNECTION_CLOSED', 'the stream carrying this request ended'));
      return new Promise(() => {});
    case 'crash':
      call.server.drop();
      return new Promise(() => {});
    default:
      return { content: [{ type: 'text', text: String(args.text ?? '') }] };
  }
};

transportContract(
  'in-memory fake',
  async () => {
    const transport = new FakeTransport({ maxMessageBytes: CONTRACT_MAX_BYTES });
    const server = new FakeMcpServer(transport, { tools: [], handlers: { 'tools/call': tools } });
    return {
      transport,
      goAway: async (c) => void c.request('tools/call', { name: 'crash' }),
      released: async () => {
        if (!server.closed) throw new Error('the fake server still thinks the pipe is open');
      },
      dispose: async () => {},
    };
  },
  {
    garbage: 'between',
    unanswerable: [
      { label: 'oversized answer', tool: 'big', args: { bytes: 2 * CONTRACT_MAX_BYTES }, code: 'MESSAGE_TOO_LARGE' },
      { label: 'answer lost on the way', tool: 'lost', code: 'CONNECTION_CLOSED' },
    ],
  },
);
