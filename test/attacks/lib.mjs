// What the attacks need to drive a real gateway from outside: start the built CLI on a config,
// speak MCP to it over HTTP (raw node:http, so an attack can send anything) or stdio, read its
// log, its peak memory, and stop it without leaving a process behind. Plain JS: `npm run attack`
// runs it with node, the test suite imports it from vitest.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixture = (name) => path.join(repoRoot, 'test/fixtures/servers', name);
export const node = process.execPath;

/** A YAML flow value for a string (JSON strings are valid YAML). */
export const q = (s) => JSON.stringify(s);

/** A stdio server entry for a fixture, as YAML lines under `servers:`. */
export function stdioServer(name, script, args = [], extra = '') {
  return `  - name: ${name}\n    command: ${q(node)}\n    args: ${JSON.stringify([fixture(script), ...args])}\n${extra}`;
}

const live = new Set();
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

/**
 * Starts `node CLI serve -c <yaml>` (HTTP on 127.0.0.1:0 unless `mode: 'stdio'` or the args say
 * otherwise). Resolves once it listens (HTTP) or has started (stdio); rejects, with its stderr,
 * if it exits first: an old build refusing a config key is reported, not hidden.
 */
export async function startGateway({ cli, yaml, mode = 'http', env = {}, args = [], timeoutMs = 20_000 }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-attack-'));
  const config = path.join(dir, 'switchboard.yaml');
  writeFileSync(config, yaml);
  const cliArgs = [cli, 'serve', '-c', config, ...(mode === 'stdio' ? ['--stdio'] : args.includes('--http') ? [] : ['--http', '127.0.0.1:0']), ...args];
  const child = spawn(node, cliArgs, { cwd: dir, env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'info', ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  live.add(child);
  const lines = [];
  const waiters = [];
  let buffered = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) w.re.test(line) ? w.resolve(line) : waiters.push(w);
    }
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => (live.delete(child), resolve({ code, signal }))));
  const waitForStderr = (re, ms = timeoutMs) => {
    const seen = lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no log line matching ${re} within ${ms} ms`)), ms);
      waiters.push({ re, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      exited.then(() => {
        // An older build that does not know a config key says so: that is the finding.
        const refused = lines.find((l) => /unknown key|invalid config/.test(l));
        reject(
          new Error(
            refused
              ? `the gateway refused the config (${
                  lines
                    .filter((l) => /unknown key/.test(l))
                    .join('; ')
                    .trim() || refused.trim()
                })`
              : `the gateway exited before logging ${re}:\n${lines.slice(-5).join('\n')}`,
          ),
        );
      });
    });
  };
  let exitInfo;
  exited.then((info) => (exitInfo = info));
  const gw = {
    child,
    pid: child.pid,
    dir,
    lines,
    exited,
    waitForStderr,
    get alive() {
      return exitInfo === undefined;
    },
    /** Resident memory of the gateway process now, in MiB (Linux /proc). */
    rssMiB() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    /** Peak resident memory of the gateway process so far, in MiB (Linux /proc). */
    peakRssMiB() {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    },
    async stop() {
      if (exitInfo === undefined) {
        killGroup(child, 'SIGTERM');
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (mode === 'stdio') {
    gw.stdio = stdioClient(child);
    return gw;
  }
  try {
    const line = await waitForStderr(/listening on http/);
    gw.url = /listening on (https?:\/\/[^\s"'\\,]+)/.exec(line)[1];
  } catch (err) {
    await gw.stop();
    throw err;
  }
  return gw;
}

/** Runs `body` against a gateway started on `yaml`, and stops the gateway whatever happens. */
export async function withGateway(cli, yaml, body, options = {}) {
  const gw = await startGateway({ cli, yaml, ...options });
  try {
    return await body(gw);
  } finally {
    await gw.stop();
  }
}

/** JSON-RPC over the gateway's stdin/stdout: send objects or raw lines, await answers. */
function stdioClient(child) {
  const messages = [];
  const waiters = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const m = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      messages.push(m);
      for (const w of waiters.splice(0)) w.pred(m) ? w.resolve(m) : waiters.push(w);
    }
  });
  child.stdin.on('error', () => {});
  const next = (pred, ms = 20_000) => {
    const seen = messages.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no such message from the gateway on stdout')), ms);
      waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  };
  let id = 0;
  return {
    messages,
    next,
    sendRaw: (line) => child.stdin.write(`${line}\n`),
    send: (m) => child.stdin.write(`${JSON.stringify(m)}\n`),
    async request(method, params) {
      const rid = `s${++id}`;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: rid, method, params })}\n`);
      return next((m) => m.id === rid);
    },
    async initialize(capabilities = {}) {
      const r = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'attacker', version: '1' } });
      this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return r;
    },
  };
}

/** One HTTP exchange with full control over headers and body. Resolves with status, headers, text. */
export function rawHttp(url, { method = 'POST', headers = {}, body, path: p } = {}) {
  const target = new URL(p ?? '', url);
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** The JSON-RPC messages of an HTTP answer (a JSON body, or every `data:` of an SSE body but a priming event's empty one). */
export function messagesOf(res) {
  if (!res.text) return [];
  if (String(res.headers['content-type']).startsWith('text/event-stream')) {
    return res.text
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l.length > 6)
      .map((l) => JSON.parse(l.slice(6)));
  }
  return [JSON.parse(res.text)];
}

/** A minimal MCP client over the gateway's HTTP face: one session, requests with any body. */
export class HttpClient {
  constructor(url, { token } = {}) {
    this.url = url;
    this.token = token;
    this.session = undefined;
    this.ids = 0;
  }

  headers(extra = {}) {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    if (this.session) h['mcp-session-id'] = this.session;
    return h;
  }

  /** POSTs `body` (a string, sent as is); resolves with the raw answer and its messages. */
  async post(body, extraHeaders) {
    const res = await rawHttp(this.url, { headers: this.headers(extraHeaders), body });
    return { ...res, messages: messagesOf(res) };
  }

  /** A request; resolves with { status, response (the answer to it), related (anything before), headers }. */
  async request(method, params, meta) {
    const id = ++this.ids;
    const p = meta ? { ...params, _meta: meta } : params;
    const res = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method, params: p }));
    return { status: res.status, headers: res.headers, response: res.messages.find((m) => m.id === id), related: res.messages.filter((m) => m.id !== id), text: res.text };
  }

  async initialize(capabilities = {}) {
    const res = await rawHttp(this.url, {
      headers: this.headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'attacker', version: '1' } } }),
    });
    if (res.status !== 200) throw new Error(`initialize: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    this.session = res.headers['mcp-session-id'];
    this.initializeResult = messagesOf(res)[0]?.result;
    await rawHttp(this.url, { headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    return this.initializeResult;
  }

  call(name, args = {}, meta) {
    return this.request('tools/call', { name, arguments: args }, meta);
  }

  /** Opens the session's GET stream; collects what is pushed. */
  openStream(extraHeaders = {}) {
    const messages = [];
    const waiters = [];
    const req = http.request(new URL(this.url), { method: 'GET', headers: this.headers({ accept: 'text/event-stream', ...extraHeaders }), agent: false }, (res) => {
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        buffered += d;
        let end;
        while ((end = buffered.indexOf('\n\n')) !== -1) {
          const event = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          for (const line of event.split('\n')) {
            if (!line.startsWith('data: ') || line.length === 6) continue;
            const m = JSON.parse(line.slice(6));
            messages.push(m);
            for (const w of waiters.splice(0)) w.pred(m) ? w.resolve(m) : waiters.push(w);
          }
        }
      });
      res.on('error', () => {});
    });
    req.on('error', () => {});
    req.end();
    return {
      messages,
      next: (pred, ms = 20_000) => {
        const seen = messages.find(pred);
        if (seen) return Promise.resolve(seen);
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('nothing such was pushed')), ms);
          waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        });
      },
      close: () => req.destroy(),
    };
  }
}

/** `{"a":{"a":…}}` as text, `n` levels deep. */
export const deepJson = (n) => `${'{"a":'.repeat(n)}0${'}'.repeat(n)}`;

/** The outcome of one attack: held (the gateway did what it must) or not, and why. */
export const held = (detail) => ({ held: true, detail });
export const breached = (detail) => ({ held: false, detail });
