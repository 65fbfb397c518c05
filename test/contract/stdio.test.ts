// The Transport contract, run against the stdio transport and a real child: the misbehaving
// fixture (test/fixtures/servers/misbehaving.mjs), whose tools crash, write garbage and answer big.

import { silentLogger } from '../../src/log.js';
import { StdioTransport } from '../../src/outbound/stdio-transport.js';
import { fixture, nodeBin, repoRoot } from '../helpers/paths.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';
import { pidAlive as alive } from '../helpers/processes.js';

transportContract(
  'stdio',
  async () => {
    const transport = new StdioTransport({ command: nodeBin, args: [fixture('misbehaving')], env: {}, cwd: repoRoot, logger: silentLogger(), maxMessageBytes: CONTRACT_MAX_BYTES });
    return {
      transport,
      goAway: async (c) => void c.request('tools/call', { name: 'crash', arguments: {} }),
      released: async () => {
        const pid = transport.pid;
        if (pid === undefined || alive(pid)) throw new Error(`the child ${pid} is still running after close()`);
      },
      dispose: async () => {},
    };
  },
  {
    garbage: 'between',
    unanswerable: [{ label: 'oversized line', tool: 'big', args: { bytes: 2 * CONTRACT_MAX_BYTES }, code: 'MESSAGE_TOO_LARGE' }],
  },
);
