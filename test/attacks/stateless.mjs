// Attacks through the stateless revision (2026-07-28): requests without a session, whose input
// rounds and listen streams must stay as private as sessions are.

import { breached, held, messagesOf, rawHttp, startGateway, stdioServer } from './lib.mjs';

const VERSION = '2026-07-28';
const PROFILES = `clients:
  - name: alice
    token: alice-token
    tools: ["shared__*", "alice__*"]
  - name: bob
    token: bob-token
    tools: ["shared__*"]
`;

/** A stateless POST as `token`'s profile; the JSON-RPC answer (JSON or the last SSE message). */
async function post(url, token, id, method, params, capabilities = { elicitation: {} }) {
  const name = params.name ?? params.uri;
  const res = await rawHttp(url, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': capabilities } },
    }),
  });
  return messagesOf(res).at(-1);
}

export const stateless = [
  {
    name: "another profile resumes a client's input round with its requestState",
    item: 'stateless',
    async run({ cli }) {
      const yaml = `${PROFILES}servers:\n${stdioServer('shared', 'interactive.mjs')}`;
      const gw = await startGateway({ cli, yaml });
      try {
        const call = { name: 'shared__ask_elicitation', arguments: {} };
        const round = await post(gw.url, 'alice-token', 1, 'tools/call', call);
        const result = round?.result;
        if (result?.resultType !== 'input_required') return held(`no input round to steal (got ${JSON.stringify(round).slice(0, 120)})`);
        const [key] = Object.keys(result.inputRequests);
        const answers = { [key]: { action: 'accept', content: { name: 'bob-was-here' } } };
        const stolen = await post(gw.url, 'bob-token', 2, 'tools/call', { ...call, requestState: result.requestState, inputResponses: answers });
        if (stolen?.result !== undefined) return breached(`bob resumed alice's call: ${JSON.stringify(stolen.result).slice(0, 160)}`);
        // Alice's own retry still works: bob's attempt cost her nothing.
        const mine = await post(gw.url, 'alice-token', 3, 'tools/call', { ...call, requestState: result.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'alice' } } } });
        return JSON.stringify(mine?.result ?? {}).includes('alice')
          ? held(`bob got ${stolen?.error?.code} ${stolen?.error?.message}; alice's retry completed`)
          : breached(`alice's own retry failed after bob's attempt: ${JSON.stringify(mine).slice(0, 160)}`);
      } finally {
        await gw.stop();
      }
    },
  },
  {
    name: 'a stateless request reaches a tool outside its profile',
    item: 'stateless',
    async run({ cli }) {
      const yaml = `${PROFILES}servers:\n${stdioServer('shared', 'echo.mjs')}${stdioServer('alice', 'echo.mjs')}`;
      const gw = await startGateway({ cli, yaml });
      try {
        const listed = await post(gw.url, 'bob-token', 1, 'tools/list', {});
        const names = (listed?.result?.tools ?? []).map((t) => t.name);
        const called = await post(gw.url, 'bob-token', 2, 'tools/call', { name: 'alice__echo', arguments: { text: 'x' } });
        const listen = await post(gw.url, 'bob-token', 3, 'server/discover', {});
        if (names.some((n) => n.startsWith('alice__'))) return breached(`bob lists ${names.join(', ')}`);
        if (called?.result !== undefined) return breached(`bob called alice__echo: ${JSON.stringify(called.result).slice(0, 100)}`);
        if (listen?.result === undefined) return breached('bob could not even discover the gateway');
        return held(`bob lists only ${names.join(', ')}; alice__echo answered ${called?.error?.code}`);
      } finally {
        await gw.stop();
      }
    },
  },
  {
    name: 'a stateful-era server asks a stateless client for input past the gateway',
    item: 'stateless',
    async run({ cli }) {
      const yaml = `servers:\n${stdioServer('hostile', 'hostile.mjs')}`;
      const gw = await startGateway({ cli, yaml });
      try {
        // No elicitation capability: the gateway must not let a server ask this client anything.
        const answer = await post(gw.url, 'none', 1, 'tools/call', { name: 'hostile__input_required', arguments: {} }, {});
        const result = answer?.result;
        if (result === undefined) return breached(`no answer: ${JSON.stringify(answer).slice(0, 160)}`);
        if (result.resultType !== 'complete') return breached(`the client was handed resultType ${JSON.stringify(result.resultType)} with ${JSON.stringify(result.inputRequests ?? {}).slice(0, 80)}`);
        return held("a 2025-era server's result is complete to a 2026-07-28 client, whatever it spells");
      } finally {
        await gw.stop();
      }
    },
  },
];
