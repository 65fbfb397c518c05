// The Transport contract, run against the stdio transport and a real child: the misbehaving
// fixture (test/fixtures/servers/misbehaving.mjs), whose tools crash, write garbage and answer big.

import { silentLogger } from '../../src/log.js';
import { StdioTransport } from '../../src/outbound/stdio-transport.js';
import { fixture, nodeBin, repoRoot } from '../helpers/paths.js';
import { CONTRACT_MAX_BYTES, transportContract } from './transport.contract.js';

/** Whether a process with this pid still exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
