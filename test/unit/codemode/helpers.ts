// Bindings for the sandbox tests: a few tools whose host side records every call, answers at
// once or when told, and can fail like a server or the gateway would.

import type { Bindings, Callable, CallContext } from '../../../src/codemode/sandbox.js';

export interface HostCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
}

export const CALLABLES: Callable[] = [
  { server: 'files', tool: 'read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { server: 'files', tool: 'echo', inputSchema: { type: 'object' } },
  { server: 'my-server', tool: 'get-file', description: 'Gets a file by id.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } },
  { server: 'slow', tool: 'wait', inputSchema: { type: 'object' } },
  { server: 'guard', tool: 'denied', inputSchema: { type: 'object' } },
];

export function testBindings(overrides: Partial<Bindings> = {}) {
  const calls: HostCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const bindings: Bindings = {
    callables: CALLABLES,
    async call(server, tool, args, ctx: CallContext) {
      calls.push({ server, tool, args, signal: ctx.signal });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (server === 'slow') {
          // Never answers by itself: ends only when its signal aborts.
          await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
        }
        if (server === 'guard') throw { code: -32602, message: 'Tool guard.denied is not allowed for this client', data: { reason: 'policy' } };
        if (tool === 'echo') await Promise.resolve();
        return { server, tool, args };
      } finally {
        inFlight--;
      }
    },
    ...overrides,
  };
  return { bindings, calls, maxInFlight: () => maxInFlight };
}
