// answerInputRounds at its edges: a server that never stops asking, questions a client cannot be
// asked, a round that asks nothing, a client that fails, answers given as raw text, cancellation.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { RpcError } from '../../../src/errors.js';
import { Cancellation } from '../../../src/jsonrpc/cancellation.js';
import { scanResponse } from '../../../src/jsonrpc/raw.js';
import { EMPTY_ROUND_PAUSE_MS, MAX_INPUT_ROUNDS, answerInputRounds, passInputRounds } from '../../../src/inbound/handlers/input-rounds.js';
import { StateWrapper } from '../../../src/router/request-state.js';

afterEach(() => vi.useRealTimers());

const connection = { name: 'srv' } as any;

function harness(answerClient: (method: string, params: any) => Promise<any> = async () => ({ action: 'accept', content: { x: 1 } })) {
  const cancellation = new Cancellation();
  const asked: Array<{ method: string; params: any }> = [];
  const context = {
    cancellation,
    sessionState: { askClient: (_c: unknown, method: string, params: any) => (asked.push({ method, params }), answerClient(method, params)) },
  } as any;
  return { context, asked, cancellation };
}

const result = (r: Record<string, any>) => ({ jsonrpc: '2.0' as const, id: 7, result: r });
const elicit = (message: string) => ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object' } } });

describe('answerInputRounds', () => {
  it('sends each round its own answers and the requestState byte for byte, then returns the final answer as it came', async () => {
    const { context } = harness();
    const sent: any[] = [];
    const answers = [
      result({ resultType: 'input_required', inputRequests: { a: elicit('1') }, requestState: ' state "1" ' }),
      result({ resultType: 'input_required', inputRequests: { b: elicit('2') } }),
      result({ resultType: 'complete', content: [] }),
    ];
    const final = await answerInputRounds(connection, context, 'tools/call', { name: 't', arguments: {} }, async (p) => (sent.push(p), answers.shift()!));
    expect(final).toEqual(result({ resultType: 'complete', content: [] }));
    expect(sent).toEqual([
      { name: 't', arguments: {} },
      { name: 't', arguments: {}, inputResponses: { a: { action: 'accept', content: { x: 1 } } }, requestState: ' state "1" ' },
      { name: 't', arguments: {}, inputResponses: { b: { action: 'accept', content: { x: 1 } } } },
    ]);
  });

  it('reads an input_required answer that came as raw text', async () => {
    const { context, asked } = harness();
    const raw = Buffer.from(JSON.stringify(result({ resultType: 'input_required', inputRequests: { k: elicit('raw') } })));
    const answers: any[] = [scanResponse([raw.subarray(0, 20), raw.subarray(20)], 512), result({ content: [] })];
    await answerInputRounds(connection, context, 'tools/call', {}, async () => answers.shift());
    expect(asked.map((a) => a.params.message)).toEqual(['raw']);
  });

  it(`gives up after ${MAX_INPUT_ROUNDS} rounds: an isError result for tools/call, an error for prompts/get`, async () => {
    const { context } = harness();
    const forever = async () => result({ resultType: 'input_required', inputRequests: { k: elicit('again') } });
    const tool: any = await answerInputRounds(connection, context, 'tools/call', {}, forever);
    expect(tool.result.isError).toBe(true);
    expect(tool.result.content[0].text).toMatch(`server "srv" still asked for input after ${MAX_INPUT_ROUNDS} rounds`);
    await expect(answerInputRounds(connection, context, 'prompts/get', {}, forever)).rejects.toThrow(/still asked for input/);
  });

  it('never relays a question no client can be asked, nor a round without questions or state', async () => {
    const { context, asked } = harness();
    const once = (r: Record<string, any>) => async () => result(r);
    await expect(answerInputRounds(connection, context, 'resources/read', {}, once({ resultType: 'input_required', inputRequests: { k: { method: 'tools/call', params: {} } } }))).rejects.toThrow(
      /input request "k" is not one a client can be asked/,
    );
    await expect(answerInputRounds(connection, context, 'resources/read', {}, once({ resultType: 'input_required', inputRequests: [] }))).rejects.toThrow(/not an object/);
    await expect(answerInputRounds(connection, context, 'resources/read', {}, once({ resultType: 'input_required' }))).rejects.toThrow(/asked nothing/);
    expect(asked).toEqual([]);
  });

  it('waits before resending a round that only carries state (a server cannot make the gateway spin), and stops on cancel', async () => {
    vi.useFakeTimers();
    const { context, cancellation } = harness();
    let sends = 0;
    const pending = answerInputRounds(connection, context, 'prompts/get', {}, async () => (sends++, result({ resultType: 'input_required', requestState: 's' })));
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toBe(1);
    await vi.advanceTimersByTimeAsync(EMPTY_ROUND_PAUSE_MS);
    expect(sends).toBe(2);
    cancellation.cancel();
    expect(String(await settled)).toMatch(/cancelled/);
    expect(sends).toBe(2);
  });

  it("turns the client's error into the call's failure, and gives a URL elicitation the id a 2025 client needs", async () => {
    const { context, asked } = harness(async (method) => {
      if (method === 'sampling/createMessage') throw new RpcError(-32601, 'the client did not declare the sampling capability');
      return { action: 'accept' };
    });
    const ask = {
      resultType: 'input_required',
      inputRequests: { u: { method: 'elicitation/create', params: { mode: 'url', url: 'https://x.test/', message: 'm' } }, s: { method: 'sampling/createMessage', params: {} } },
    };
    const failed: any = await answerInputRounds(connection, context, 'tools/call', {}, async () => result(ask));
    expect(failed.result).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringContaining('did not declare the sampling capability') }] });
    expect(asked.find((a) => a.method === 'elicitation/create')!.params.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('passInputRounds', () => {
  const states = new StateWrapper(Buffer.alloc(32, 7));
  const as = (principal: string | undefined, profile = 'team') => ({ cancellation: new Cancellation(), session: { principal, profile: { name: profile } }, sessionState: { states } }) as any;
  const asks = async () => result({ resultType: 'input_required', inputRequests: { k: elicit('?') }, requestState: 'the server’s own' });

  it("wraps the server's state and gives it back byte for byte only to the same principal, server and call", async () => {
    const first: any = await passInputRounds(connection, as('oauth:team:alice'), 'tools/call', { name: 't', arguments: { a: 1 } }, asks);
    const wrapped = first.result.requestState;
    expect(wrapped).toMatch(/^sb1w\./);
    const retry = { name: 't', arguments: { a: 1 }, inputResponses: {}, requestState: wrapped };
    const sent: any[] = [];
    const record = async (p: any) => (sent.push(p), result({ content: [] }));
    await passInputRounds(connection, as('oauth:team:alice'), 'tools/call', retry, record);
    expect(sent[0].requestState).toBe('the server’s own');
    // Another user of the same profile, another server, other arguments: all refused.
    await expect(passInputRounds(connection, as('oauth:team:bob'), 'tools/call', retry, record)).rejects.toThrow('Invalid or expired requestState');
    await expect(passInputRounds({ name: 'other' } as any, as('oauth:team:alice'), 'tools/call', retry, record)).rejects.toThrow('Invalid or expired requestState');
    await expect(passInputRounds(connection, as('oauth:team:alice'), 'tools/call', { ...retry, arguments: { a: 2 } }, record)).rejects.toThrow('Invalid or expired requestState');
    expect(sent).toHaveLength(1);
  });

  it("a sampling question's messages reach the client without resources its profile may not see", async () => {
    const catalog = { resourcePolicy: new Map([['srv', () => true]]), renamedUris: new Map() };
    const context = { ...as('alice'), sessionState: { states }, gateway: { catalog }, view: { allowsUri: (uri: string) => !uri.startsWith('file:///secret/') } };
    const link = (uri: string) => ({ role: 'user', content: [{ type: 'tool_result', toolUseId: 'x', content: [{ type: 'resource_link', uri }] }] });
    const sampling = { method: 'sampling/createMessage', params: { maxTokens: 3, messages: [link('file:///secret/keys.txt'), link('file:///public/a')] } };
    const round: any = await passInputRounds(connection, context, 'tools/call', { name: 't' }, async () =>
      result({ resultType: 'input_required', inputRequests: { s: sampling, e: elicit('?') }, requestState: 'st' }),
    );
    const questions = round.result.inputRequests;
    expect(JSON.stringify(questions)).not.toContain('secret');
    expect(questions.s.params.messages).toEqual([{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'x', content: [] }] }, link('file:///public/a')]);
    expect(questions.e).toEqual(elicit('?'));
  });
});
