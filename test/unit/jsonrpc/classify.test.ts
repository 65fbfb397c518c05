import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/protocol/jsonrpc.js';

describe('classify', () => {
  it('tells the four kinds apart', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe('request');
    expect(classify({ jsonrpc: '2.0', id: 'a', method: 'x', params: {} })).toBe('request');
    expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe('notification');
    expect(classify({ jsonrpc: '2.0', id: 1, result: {} })).toBe('response');
    expect(classify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toBe('response');
  });

  it('rejects what JSON-RPC forbids', () => {
    expect(classify({ jsonrpc: '2.0', id: null, method: 'x' })).toBe('invalid'); // null id on a request
    expect(classify({ jsonrpc: '1.0', id: 1, method: 'x' })).toBe('invalid');
    expect(classify({ id: 1, method: 'x' })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: 3 })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: '' } })).toBe('invalid');
    // A method beside a result or error: read as a request by some, as a response by others.
    expect(classify({ jsonrpc: '2.0', id: 1, result: {}, method: 'sampling/createMessage', params: {} })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: '' }, method: 'x' })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', method: 'notifications/x', result: {} })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: 1, error: { message: 'no code' } })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: {}, result: {} })).toBe('invalid');
    expect(classify([{ jsonrpc: '2.0', method: 'x' }])).toBe('invalid');
    expect(classify(null)).toBe('invalid');
    expect(classify('x')).toBe('invalid');
  });

  it('never throws, whatever it is given (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        expect(['request', 'notification', 'response', 'invalid']).toContain(classify(v));
      }),
    );
  });
});
