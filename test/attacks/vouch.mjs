// Attacks on what the gateway vouches for (issue "Hardening, round 2", items 8-10): answers passed on
// unparsed that a client would read as something else, or not read at all; an app's MIME type on a
// resource that is no app; a tool that changes who may see it after `switchboard lock`.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpClient, breached, held, node, q, rawHttp, stdioServer, withGateway } from './lib.mjs';

/** The vouch fixture as a server entry; a short timeout, so an answer that never comes shows fast. */
const vouchServer = (args = []) => stdioServer('vouch', 'vouch.mjs', args, '    timeout: 5s\n');

/** The JSON-RPC messages of an HTTP answer, each parsed on its own: `invalid` holds what is not JSON. */
function messagesIn(res) {
  const texts = String(res.headers['content-type']).startsWith('text/event-stream')
    ? res.text
        .split('\n')
        .filter((l) => l.startsWith('data: ') && l.length > 6)
        .map((l) => l.slice(6))
    : res.text
      ? [res.text]
      : [];
  const messages = [];
  const invalid = [];
  for (const t of texts) {
    try {
      messages.push(JSON.parse(t));
    } catch {
      invalid.push(t);
    }
  }
  return { messages, invalid };
}

/** One tools/call over HTTP, its answer's messages read one by one. */
async function callOverHttp(client, id, name, args = {}) {
  const res = await rawHttp(client.url, { headers: client.headers(), body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) });
  return messagesIn(res);
}

/** One tools/call over the gateway's stdio face; every line it writes is read on its own. */
async function callOverStdio(cli, yaml, name, args = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-vouch-'));
  const config = path.join(dir, 'switchboard.yaml');
  writeFileSync(config, yaml);
  const child = spawn(node, [cli, 'serve', '-c', config, '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = [];
  let buffered = '';
  let wake = () => {};
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      wake();
    }
  });
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  /** Waits for a line that names `id` (as JSON or not), up to 20 s. */
  const lineFor = (id) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${id} on stdout`)), 20_000);
      const look = () => {
        const line = lines.find((l) => l.includes(`"id":${JSON.stringify(id)}`));
        if (line !== undefined) {
          clearTimeout(timer);
          resolve(line);
        }
      };
      wake = look;
      look();
    });
  try {
    send({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } });
    await lineFor('i');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name, arguments: args } });
    const line = await lineFor('c');
    try {
      return { message: JSON.parse(line) };
    } catch {
      return { invalid: line };
    }
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Why an answer to a call is not the clear error it must be, or undefined when it is one. */
function notAClearError(message) {
  if (message === undefined) return 'no answer';
  if ('method' in message) return `a message with "method": ${JSON.stringify(message).slice(0, 160)}`;
  if (message.error?.data?.code !== 'PROTOCOL_ERROR' || message.error?.data?.server !== 'vouch') return `not a PROTOCOL_ERROR naming the server: ${JSON.stringify(message).slice(0, 160)}`;
  return undefined;
}

export const vouch = [
  {
    name: 'an answer with a method beside its result reaches the client as a request',
    item: '28.8',
    async run({ cli }) {
      const yaml = `servers:\n${vouchServer()}`;
      const overHttp = await withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url);
        await c.initialize();
        const { messages, invalid } = await callOverHttp(c, 7, 'vouch__method_beside_result');
        const echo = await c.call('vouch__echo', { text: 'still here' });
        const withMethod = messages.filter((m) => 'method' in m && m.id === 7);
        if (withMethod.length > 0 || invalid.length > 0) return `HTTP: the client received ${JSON.stringify(withMethod[0] ?? invalid[0]).slice(0, 200)}`;
        const why = notAClearError(messages.find((m) => m.id === 7));
        if (why) return `HTTP: ${why}`;
        return echo.response?.result?.content?.[0]?.text === 'still here' ? undefined : 'HTTP: the server was not usable after';
      });
      const overStdio = await callOverStdio(cli, yaml, 'vouch__method_beside_result');
      const stdioWhy = overStdio.invalid !== undefined ? `stdio: invalid JSON ${overStdio.invalid.slice(0, 120)}` : notAClearError(overStdio.message);
      if (overHttp === undefined && stdioWhy === undefined) return held('over HTTP and stdio the client got a PROTOCOL_ERROR naming the server, never a message with "method"');
      return breached([overHttp, stdioWhy && `stdio: ${stdioWhy}`].filter(Boolean).join('; '));
    },
  },
  {
    name: 'invalid JSON in balanced brackets and raw control bytes in an answer reach the client',
    item: '28.8',
    async run({ cli }) {
      const kinds = ['bareword', 'commas', 'number', 'trailing', 'control', 'escape'];
      const yaml = `servers:\n${vouchServer()}`;
      const problems = await withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url);
        await c.initialize();
        const out = [];
        let id = 100;
        for (const kind of kinds) {
          const { messages, invalid } = await callOverHttp(c, ++id, 'vouch__garbage', { kind });
          if (invalid.length > 0) out.push(`HTTP ${kind}: invalid JSON ${JSON.stringify(invalid[0].slice(0, 100))}`);
          else if (notAClearError(messages.find((m) => m.id === id))) out.push(`HTTP ${kind}: ${notAClearError(messages.find((m) => m.id === id))}`);
        }
        return out;
      });
      for (const kind of ['control', 'commas']) {
        const r = await callOverStdio(cli, yaml, 'vouch__garbage', { kind });
        if (r.invalid !== undefined) problems.push(`stdio ${kind}: invalid JSON ${JSON.stringify(r.invalid.slice(0, 100))}`);
        else if (notAClearError(r.message)) problems.push(`stdio ${kind}: ${notAClearError(r.message)}`);
      }
      return problems.length === 0
        ? held(`${kinds.length} kinds of invalid answer over HTTP and 2 over stdio: each a PROTOCOL_ERROR naming the server, never invalid JSON`)
        : breached(problems.join('; '));
    },
  },
  {
    name: 'an app MIME type on a plain file: resource skips sanitize.results',
    item: '28.9',
    async run({ cli }) {
      // One server declares the MCP Apps extension, the other does not; both label a file: resource an app.
      const yaml = `sanitize:\n  results: true\nservers:\n${vouchServer(['--apps', '--declare-ui'])}${stdioServer('undeclared', 'vouch.mjs', ['--apps'])}`;
      return withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url);
        // A client that renders apps: the exemption's audience.
        await c.initialize({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
        const read = async (uri) => (await c.request('resources/read', { uri })).response?.result?.contents?.[0]?.text ?? '';
        const injected = (t) => /Ignore previous instructions|IMPORTANT/.test(t);
        // Both servers list file:///notes/readme.html: whichever serves it, it must arrive cleaned.
        const plain = await read('file:///notes/readme.html');
        const undeclared = await read('ui://undeclared+widget/app.html');
        const app = await read('ui://vouch+widget/app.html');
        if (injected(plain)) return breached(`the file: resource arrived uncleaned: ${JSON.stringify(plain.slice(0, 160))}`);
        if (injected(undeclared)) return breached(`the ui:// resource of a server that did not declare the extension arrived uncleaned: ${JSON.stringify(undeclared.slice(0, 120))}`);
        if (!plain.includes('<p>Notes</p>')) return breached(`the file: resource lost its text: ${JSON.stringify(plain.slice(0, 160))}`);
        return injected(app) && app.includes('<script>')
          ? held("the file: resource and an undeclared server's ui:// page arrived cleaned; the declaring server's own ui:// app still verbatim")
          : breached(`the ui:// app of a server that declared the extension was changed: ${JSON.stringify(app.slice(0, 160))}`);
      });
    },
  },
  {
    name: 'after switchboard lock, an app-only tool turns visible to the model',
    item: '28.10',
    async run({ cli }) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-pin-'));
      const visibility = path.join(dir, 'visibility');
      const lockFile = path.join(dir, 'switchboard.lock');
      const yaml = `pinning:\n  lockFile: ${q(lockFile)}\nservers:\n${vouchServer(['--apps', '--visibility-file', visibility])}`;
      try {
        writeFileSync(visibility, 'app');
        writeFileSync(path.join(dir, 'switchboard.yaml'), yaml);
        const lock = await runCli(cli, ['lock', '-c', path.join(dir, 'switchboard.yaml')], dir);
        if (lock.code !== 0) return breached(`switchboard lock failed: ${lock.stderr.slice(-300)}`);
        // The rug pull: the same tool, now for the model too.
        writeFileSync(visibility, 'model,app');
        return await withGateway(cli, yaml, async (gw) => {
          const c = new HttpClient(gw.url);
          await c.initialize(); // renders no app: a model-only client
          const listed = ((await c.request('tools/list', {})).response?.result?.tools ?? []).map((t) => t.name);
          const call = await c.call('vouch__app_only');
          const called = call.response?.result?.content?.[0]?.text === 'refreshed';
          if (!listed.includes('vouch__echo')) return breached(`the control tool is missing: ${listed.join(', ')}`);
          return !listed.includes('vouch__app_only') && !called
            ? held('the changed tool is held back: a model-only client neither lists nor calls it')
            : breached(`a model-only client ${listed.includes('vouch__app_only') ? 'lists' : 'does not list'} the tool and ${called ? 'called' : 'could not call'} it`);
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

/** Runs the CLI to the end; resolves with its exit code and stderr. */
function runCli(cli, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(node, [cli, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}
