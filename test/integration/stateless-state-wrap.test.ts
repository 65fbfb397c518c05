// A 2026-07-28 server's input rounds reaching a 2026 client through the gateway: the server's
// requestState travels inside a signed one of ours, bound to the server, the method, the params
// and the principal, with an expiry. Gateways sharing listen.stateKey accept each other's (one
// client's rounds may land on any process behind a balancer); anything altered or moved is -32602.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, httpServer, startGateway, yamlServers, type HttpGateway } from '../helpers/index.js';
import { STATELESS_VERSION, postMessage } from '../helpers/stateless-client.js';
import { startStatelessHttpFixture } from '../helpers/stateless-fixture.js';

afterAll(cleanup);

const KEY = 'a shared secret of at least 32 characters, for tests';
const META = { 'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };

async function post(gw: HttpGateway, id: number, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const headersFor = { 'mcp-protocol-version': STATELESS_VERSION, 'mcp-method': method, ...headers };
  return (await postMessage(gw.url, { jsonrpc: '2.0', id, method, params: { _meta: META, ...params } }, headersFor)).data;
}

const call = (gw: HttpGateway, id: number, name: string, extra: Record<string, unknown> = {}) => post(gw, id, 'tools/call', { name, arguments: {}, ...extra }, { 'mcp-name': name });

const accept = (content: Record<string, string>) => ({ action: 'accept', content });

describe("a 2026 server's requestState on its way to a 2026 client", () => {
  let a: HttpGateway;
  let b: HttpGateway;
  let stranger: HttpGateway;
  beforeAll(async () => {
    // One server behind every gateway, as behind a load balancer: its own state is good at each.
    const server = await startStatelessHttpFixture({ modernOnly: true });
    const servers = [httpServer('m', server.url)];
    [a, b, stranger] = await Promise.all([
      startGateway(yamlServers(servers, { listen: { stateKey: KEY }, catalog: { pageSize: 3 } })),
      startGateway(yamlServers(servers, { listen: { stateKey: KEY }, catalog: { pageSize: 3 } })),
      startGateway(yamlServers(servers, { listen: { stateKey: `${KEY}, but another one` }, catalog: { pageSize: 3 } })),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a, b, stranger].map((g) => g?.stop()));
  });

  it("is ours, wrapping the server's, and resumes the call on another process with the same key", async () => {
    const r1 = await call(a, 1, 'm__two_step');
    expect(r1.result).toMatchObject({ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/create' } } });
    expect(r1.result.requestState).toBeUndefined(); // the server's first round carries no state
    const r2 = await call(b, 2, 'm__two_step', { inputResponses: { name: accept({ name: 'Ada' }) } });
    expect(r2.result).toMatchObject({ resultType: 'input_required', inputRequests: { color: { method: 'elicitation/create' } } });
    expect(r2.result.requestState).toMatch(/^sb1w\./);
    const done = await call(a, 3, 'm__two_step', { inputResponses: { color: accept({ color: 'teal' }) }, requestState: r2.result.requestState });
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Ada likes teal' }] });
  });

  it('refuses it altered, taken to another tool, brought to a gateway with another key, or not ours at all', async () => {
    const r = await call(a, 1, 'm__two_step', { inputResponses: { name: accept({ name: 'Grace' }) } });
    const state: string = r.result.requestState;
    const answer = { inputResponses: { color: accept({ color: 'red' }) } };
    const refused = { code: -32602, message: 'Invalid or expired requestState' };
    const flipped = state.slice(0, 10) + (state[10] === 'A' ? 'B' : 'A') + state.slice(11);
    expect((await call(a, 2, 'm__two_step', { ...answer, requestState: flipped })).error).toMatchObject(refused);
    expect((await call(a, 3, 'm__ask_name', { ...answer, requestState: state })).error).toMatchObject(refused);
    expect((await call(stranger, 4, 'm__two_step', { ...answer, requestState: state })).error).toMatchObject(refused);
    // The bare server state inside is not accepted either: the client never sees it, so never sends it.
    const inner = JSON.parse(Buffer.from(state.slice('sb1w.'.length).split('.')[0]!, 'base64url').toString()).inner;
    expect((await call(a, 5, 'm__two_step', { ...answer, requestState: inner })).error).toMatchObject(refused);
    // Untouched, it still works.
    expect((await call(b, 6, 'm__two_step', { ...answer, requestState: state })).result.content[0].text).toBe('Grace likes red');
  });

  it('list cursors too: a page one process gave is continued by another with the same key, refused by one without', async () => {
    const first = await post(a, 1, 'tools/list', {});
    expect(first.result.tools).toHaveLength(3);
    const second = await post(b, 2, 'tools/list', { cursor: first.result.nextCursor });
    expect(second.result.tools).toHaveLength(3);
    expect(second.result.tools[0].name).not.toBe(first.result.tools[0].name);
    expect((await post(stranger, 3, 'tools/list', { cursor: first.result.nextCursor })).error.code).toBe(-32602);
  });
});
