#!/usr/bin/env node
// The client under test in the conformance suite's client scenarios: the gateway's own outbound
// client (ServerConnection from dist/, so run `npm run build` first), pointed at the suite's
// test server. The suite runs `node conformance/client-driver.mjs <server-url>` with
// MCP_CONFORMANCE_SCENARIO set (and MCP_CONFORMANCE_CONTEXT for scenarios that hand the client
// data, e.g. the arguments of http-custom-headers' calls).
//
// What it does, for every scenario: connect (the connection finds the server's era: a
// server/discover probe, then initialize for a 2025-era server; every list the server offers),
// call each listed tool once (with the context's arguments, else arguments made from its
// inputSchema), read each listed resource, get each listed prompt, close. That covers initialize,
// tools_call, elicitation-sep1034-client-defaults and sse-retry (2025-11-25) and tools_call,
// request-metadata, http-standard-headers, http-custom-headers, http-invalid-tool-headers,
// json-schema-ref-no-deref and sep-2322-client-request-state (2026-07-28).
//
// The driver plays the end client a gateway would relay to. 2025-era servers send it requests
// (the connection's `onRequest` event); 2026-era servers answer `input_required` instead, and the
// driver answers the inputRequests with the same canned handlers and retries the call (a new
// JSON-RPC id, `inputResponses`, `requestState` echoed byte for byte when there was one): the
// gateway's outbound client passes those results through; bridging them is the router's job.
// Elicitations are accepted with each field's schema default (what a client's form shows
// pre-filled, SEP-1034), sampling gets a canned answer, roots/list an empty list.
//
// The `auth/*` scenarios: the connection gets an OAuth client state of the gateway's own
// (createServerAuth from dist/outbound/auth, the one ServerConnection's HTTP transports consult on
// every request), interactive and in memory: the suite's authorization server redirects straight
// back, so "the browser" is fetch following redirects to our loopback callback. Client identity
// from MCP_CONFORMANCE_CONTEXT (client_id, client_secret, private_key_pem) as a config would give
// it; a Client ID Metadata Document URL for the CIMD scenario; client credentials when the
// scenario is one of those.
//
// Exit code: 0 when the connection became ready and every call got an answer (a JSON-RPC error
// is an answer), else 1. Logs go to stderr (the suite keeps them in stderr.txt);
// CONFORMANCE_DRIVER_LOG=debug (or info, warn ...) also turns on the gateway's own logger.
import process from 'node:process';

const dist = new URL('../dist/', import.meta.url);
const { ServerConnection } = await import(new URL('outbound/server-connection.js', dist).href);
const { silentLogger, createLogger } = await import(new URL('log.js', dist).href);
const errors = await import(new URL('errors.js', dist).href);
const auth = await import(new URL('outbound/auth/index.js', dist).href);

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
const say = (msg) => process.stderr.write(`[client-driver ${scenario}] ${msg}\n`);

if (!/^https?:\/\//.test(url ?? '')) {
  say(`usage: client-driver.mjs <server-url> (got ${JSON.stringify(url)})`);
  process.exit(2);
}

/** Scenario data: `toolCalls: [{ name, arguments }]` gives the arguments of those calls. */
let context = {};
try {
  context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
} catch {
  say('MCP_CONFORMANCE_CONTEXT is not JSON; ignored');
}
const contextCalls = Array.isArray(context.toolCalls) ? context.toolCalls : [];

const CALL_TIMEOUT_MS = 20_000;
const MAX_ROUNDS = 10;
const config = {
  kind: 'http',
  name: 'conformance',
  prefix: '',
  enabled: true,
  timeoutMs: CALL_TIMEOUT_MS,
  startupTimeoutMs: CALL_TIMEOUT_MS,
  url,
  transport: 'streamable-http',
  protocol: 'auto',
  headers: {},
  tools: { allow: ['*'], deny: [] },
  prompts: { allow: ['*'], deny: [] },
  resources: { allow: ['*'], deny: [] },
};

/** `auth:` as a config file would hold it for this scenario's server. */
function oauthSettings() {
  const settings = { type: 'oauth', clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
  if (context.client_id) settings.clientId = context.client_id;
  if (context.client_secret) settings.clientSecret = context.client_secret;
  if (context.private_key_pem) settings.clientPrivateKey = context.private_key_pem;
  if (context.signing_algorithm) settings.clientPrivateKeyAlg = context.signing_algorithm;
  settings.grant = scenario.includes('client-credentials') ? 'client_credentials' : 'authorization_code';
  return settings;
}

/** The gateway's OAuth client for this server, interactive, tokens in memory. */
function serverAuth() {
  const target = { name: config.name, url, ...(scenario.startsWith('auth/') ? { auth: oauthSettings() } : {}) };
  return auth.createServerAuth(target, {
    store: new auth.MemoryTokenStore(),
    interactive: true,
    print: (line) => say(line.replace(/([?&](code|state|code_challenge)=)[^&\s]+/g, '$1…')),
    openUrl: async (u) => void (await (await fetch(u, { redirect: 'follow' })).arrayBuffer()),
  });
}

/** Form content made of the defaults in an elicitation's requestedSchema. */
function defaultsOf(schema) {
  const content = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) {
    if (prop && typeof prop === 'object' && 'default' in prop) content[key] = prop.default;
    else if (prop?.type === 'boolean') content[key] = true;
  }
  return content;
}

const serverRequests = [];
/** What the end client answers, to a 2025-era server's request or a 2026-era input request alike. */
function answer(method, params) {
  serverRequests.push(method);
  say(`client asked: ${method}`);
  switch (method) {
    case 'elicitation/create':
      return { action: 'accept', content: defaultsOf(params?.requestedSchema) };
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'A canned answer from the conformance driver.' }, model: 'conformance-driver', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [] };
    default:
      if (errors.RpcError) throw new errors.RpcError(-32601, `Method not found: ${method}`);
      throw new Error(`Method not found: ${method}`);
  }
}

/** A value of the schema's type, for the tool's required and listed arguments. */
function sampleValue(schema, name) {
  if (!schema || typeof schema !== 'object') return 'test';
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return name === 'b' ? 3 : 5;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'test';
  }
}

function argumentsFor(schema) {
  const args = {};
  for (const [key, prop] of Object.entries(schema?.properties ?? {})) args[key] = sampleValue(prop, key);
  return args;
}

/**
 * One request, as the end client would make it: input_required results are answered and the
 * same request retried (new id, inputResponses, requestState as it came) until a final answer.
 */
async function call(connection, method, params) {
  let round = { ...params };
  for (let i = 1; i <= MAX_ROUNDS; i++) {
    const response = await connection.forward(method, round, { timeoutMs: CALL_TIMEOUT_MS });
    const result = response.result;
    if (result?.resultType !== 'input_required') return response;
    const inputResponses = {};
    for (const [key, request] of Object.entries(result.inputRequests ?? {})) inputResponses[key] = answer(request.method, request.params);
    say(`${method} round ${i}: input_required (${Object.keys(inputResponses).join(', ') || 'state only'}); retrying`);
    round = { ...params, inputResponses };
    if (typeof result.requestState === 'string') round.requestState = result.requestState;
  }
  throw new Error(`${method}: still input_required after ${MAX_ROUNDS} rounds`);
}

function summary(response) {
  return 'error' in response ? `error ${JSON.stringify(response.error)}` : `result ${JSON.stringify(response.result).slice(0, 300)}`;
}

const logLevel = process.env.CONFORMANCE_DRIVER_LOG;
const logger = logLevel ? createLogger({ level: logLevel, format: 'json' }) : silentLogger();
const clientCapabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
const connection = new ServerConnection(config, logger, { onRequest: async (_c, request) => answer(request.method, request.params) }, { clientCapabilities, reconnect: false, auth: serverAuth() });

let ok = true;
const started = Date.now();
/** Runs one request to its final answer; a gateway failure (not a JSON-RPC error) fails the run. */
async function attempt(label, method, params) {
  const t0 = Date.now();
  try {
    const response = await call(connection, method, params);
    say(`${label} -> ${summary(response)} (${Date.now() - t0}ms)`);
  } catch (err) {
    ok = false;
    say(`${label} failed after ${Date.now() - t0}ms: ${err?.message ?? err}`);
  }
}

try {
  await connection.connect();
  say(`state ${connection.state}${connection.problem ? ` (${connection.problem})` : ''} era ${connection.era} protocol ${connection.protocolVersion ?? '-'} after ${Date.now() - started}ms`);
  if (connection.state !== 'ready') {
    ok = false;
  } else {
    const { tools, resources, prompts } = connection.lists;
    say(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      const given = contextCalls.filter((c) => c?.name === tool.name);
      let argsList = given.length > 0 ? given.map((c) => c.arguments ?? {}) : [argumentsFor(tool.inputSchema)];
      // json-schema-2020-12-preservation: hand back, as it arrived, the schema another tool came with.
      if (scenario === 'json-schema-2020-12-preservation' && tool.name === 'json_schema_echo') {
        argsList = [{ schema: tools.find((t) => t.name !== tool.name)?.inputSchema }];
      }
      for (const args of argsList) await attempt(`tools/call ${tool.name} ${JSON.stringify(args)}`, 'tools/call', { name: tool.name, arguments: args });
    }
    for (const resource of resources) await attempt(`resources/read ${resource.uri}`, 'resources/read', { uri: resource.uri });
    for (const prompt of prompts)
      await attempt(`prompts/get ${prompt.name}`, 'prompts/get', {
        name: prompt.name,
        arguments: argumentsFor({ properties: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, { type: 'string' }])) }),
      });
  }
} catch (err) {
  ok = false;
  say(`unexpected: ${err?.stack ?? err}`);
} finally {
  if (connection.auth) say(`auth ${JSON.stringify({ ...connection.auth.state(), expiresAt: undefined })}`);
  await connection.close().catch((err) => say(`close: ${err?.message ?? err}`));
}
say(`done (${ok ? 'ok' : 'failed'}); client requests answered: ${serverRequests.join(', ') || 'none'}`);
process.exit(ok ? 0 : 1);
