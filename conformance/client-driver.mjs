#!/usr/bin/env node
// The client under test in the conformance suite's client scenarios: the gateway's own outbound
// client (ServerConnection from dist/, so run `npm run build` first), pointed at the suite's
// test server. The suite runs `node conformance/client-driver.mjs <server-url>` with
// MCP_CONFORMANCE_SCENARIO set.
//
// What it does, for every scenario: connect (initialize, initialized, every list the server
// offers), call each listed tool once with arguments made from its inputSchema, close. That is
// what `initialize`, `tools_call`, `elicitation-sep1034-client-defaults` and `sse-retry` need.
//
// Server→client requests reach the connection's `onRequest` event, which here plays the part
// of the upstream client a gateway would forward them to: `elicitation/create` is accepted
// with each field's schema default (what a client's form shows pre-filled, SEP-1034), and
// `sampling/createMessage` gets a canned answer. The gateway itself does not fill defaults:
// it forwards; the scenario checks that such a request gets through and its answer comes back.
//
// The `auth/*` scenarios: the connection gets an OAuth client state of the gateway's own
// (createServerAuth from dist/outbound/auth, the one ServerConnection's HTTP transports consult on
// every request), interactive and in memory: the suite's authorization server redirects straight
// back, so "the browser" is fetch following redirects to our loopback callback. Client identity
// from MCP_CONFORMANCE_CONTEXT (client_id, client_secret, private_key_pem) as a config would give
// it; a Client ID Metadata Document URL for the CIMD scenario; client credentials when the
// scenario is one of those.
//
// Exit code: 0 when the connection became ready and every call got an answer, else 1.
// Logs go to stderr (the suite keeps them in stderr.txt); CONFORMANCE_DRIVER_LOG=debug (or
// info, warn ...) also turns on the gateway's own logger.
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

const CALL_TIMEOUT_MS = 20_000;
const config = {
  kind: 'http',
  name: 'conformance',
  prefix: '',
  enabled: true,
  timeoutMs: CALL_TIMEOUT_MS,
  startupTimeoutMs: CALL_TIMEOUT_MS,
  url,
  transport: 'streamable-http',
  headers: {},
  tools: { allow: ['*'], deny: [] },
  prompts: { allow: ['*'], deny: [] },
  resources: { allow: ['*'], deny: [] },
};

/** `auth:` as a config file would hold it for this scenario's server. */
function oauthSettings() {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
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
  }
  return content;
}

const serverRequests = [];
async function onRequest(_connection, request) {
  serverRequests.push(request.method);
  say(`server request ${request.method}`);
  switch (request.method) {
    case 'elicitation/create':
      return { action: 'accept', content: defaultsOf(request.params?.requestedSchema) };
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'A canned answer from the conformance driver.' }, model: 'conformance-driver', stopReason: 'endTurn' };
    case 'roots/list':
      return { roots: [] };
    default:
      if (errors.RpcError) throw new errors.RpcError(-32601, `Method not found: ${request.method}`);
      throw new Error(`Method not found: ${request.method}`);
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

const logLevel = process.env.CONFORMANCE_DRIVER_LOG;
const logger = logLevel ? createLogger({ level: logLevel, format: 'json' }) : silentLogger();
// The constructor's fourth argument was `maxMessageBytes` and became an options object (client
// capabilities, ...): support both builds of dist/.
const takesOptions = ServerConnection.toString().includes('clientCapabilities');
const clientCapabilities = { elicitation: { form: {} }, sampling: {} };
const connection = takesOptions
  ? new ServerConnection(config, logger, { onRequest }, { clientCapabilities, auth: serverAuth() })
  : new ServerConnection(config, logger, { onRequest });
if (!takesOptions) say('this dist/ ServerConnection declares no client capabilities (old build)');

let ok = true;
const started = Date.now();
try {
  await connection.connect();
  say(`state ${connection.state}${connection.problem ? ` (${connection.problem})` : ''} protocol ${connection.protocolVersion ?? '-'} after ${Date.now() - started}ms`);
  if (connection.state !== 'ready') {
    ok = false;
  } else {
    const tools = connection.lists?.tools ?? [];
    say(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
    for (const tool of tools) {
      const args = argumentsFor(tool.inputSchema);
      const t0 = Date.now();
      try {
        const response = await connection.forward('tools/call', { name: tool.name, arguments: args }, { timeoutMs: CALL_TIMEOUT_MS });
        const summary = 'error' in response ? `error ${JSON.stringify(response.error)}` : `result ${JSON.stringify(response.result).slice(0, 300)}`;
        say(`tools/call ${tool.name} ${JSON.stringify(args)} -> ${summary} (${Date.now() - t0}ms)`);
        if ('error' in response) ok = false;
      } catch (err) {
        ok = false;
        say(`tools/call ${tool.name} failed after ${Date.now() - t0}ms: ${err?.message ?? err}`);
      }
    }
  }
} catch (err) {
  ok = false;
  say(`unexpected: ${err?.stack ?? err}`);
} finally {
  if (connection.auth) say(`auth ${JSON.stringify({ ...connection.auth.state(), expiresAt: undefined })}`);
  await connection.close().catch((err) => say(`close: ${err?.message ?? err}`));
}
say(`done (${ok ? 'ok' : 'failed'}); server requests seen: ${serverRequests.join(', ') || 'none'}`);
process.exit(ok ? 0 : 1);
