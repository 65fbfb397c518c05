// The paths under test, each started in a fresh process tree in front of bench/echo-server.mjs:
//   direct        raw stdio client -> echo server
//   sb-stdio      raw stdio client -> Switchboard (--stdio) -> echo server(s)
//   sb-http       raw HTTP client  -> Switchboard (--http, Streamable HTTP) -> echo server(s)
//   sb-http-modern  the same, the client speaking 2026-07-28 (stateless: envelope per request)
//   sb-http-nometrics  sb-http with SWITCHBOARD_METRICS=off (only with --metrics-cost: the counters'
//                  cost is sb-http ÷ this, measured in the same run)
//   mcp-proxy     raw HTTP client  -> mcp-proxy (Streamable HTTP at /mcp) -> echo server
//   supergateway  raw HTTP client  -> supergateway --stateful (Streamable HTTP at /mcp) -> echo server
//   direct-remote raw HTTP client  -> echo server over Streamable HTTP (a remote server)
//   sb-remote     raw stdio client -> Switchboard (--stdio) -> echo server over Streamable HTTP
//   direct-remote-sse, sb-remote-sse  the same, the server answering each POST with an SSE stream
//   floor-stdio, floor-http  the same clients -> bench/floor-proxy.mjs -> echo server: a bare Node
//                 proxy that only forwards, remaps ids and renames the tool (what a third process
//                 costs on this machine, whatever it does)
//   relay-node, relay-c  raw stdio client -> a byte relay (bench/byte-relay.mjs: Node streams piped;
//                 bench/byte-relay.c: read/write, compiled when a C compiler is there) -> echo
//                 server: a process in the middle that does nothing at all, in Node and not
// open(path, opts) returns { path, pid, proc, toolName, tool(base), session (a client),
// newSession() (HTTP only), close() }.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent, HttpSession, ModernHttpSession } from './http-client.mjs';
import { sleep, start } from './procs.mjs';
import { StdioClient } from './stdio-client.mjs';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const ROOT_DIR = dirname(BENCH_DIR);
export const OUT_DIR = join(BENCH_DIR, '.out');
export const ECHO = join(BENCH_DIR, 'echo-server.mjs');
/** The gateway's CLI; `--gateway PATH` points it at another build (A/B comparisons). */
export let GATEWAY = join(ROOT_DIR, 'dist', 'main.js');
export function setGateway(path) {
  GATEWAY = path;
}
/**
 * Another build measured beside this one in the same run (`--baseline PATH`: its dist/main.js),
 * on the paths base-stdio and base-http. CPU per call moves with the machine's load by 2× and
 * more; a ratio to an older build measured in the same windows does not.
 */
export let BASELINE;
export function setBaseline(path) {
  BASELINE = path;
}
export const FLOOR = join(BENCH_DIR, 'floor-proxy.mjs');
export const NODE_RELAY = join(BENCH_DIR, 'byte-relay.mjs');
/** bench/byte-relay.c, compiled into .out/ by prereq.mjs ensureCRelay(). */
export const C_RELAY = join(OUT_DIR, 'byte-relay');
export const MCP_PROXY_BIN = join(BENCH_DIR, 'node_modules', 'mcp-proxy', 'dist', 'bin', 'mcp-proxy.mjs');
export const SUPERGATEWAY_BIN = join(BENCH_DIR, 'node_modules', 'supergateway', 'dist', 'index.js');

export const PATHS = {
  direct: { label: 'direct (stdio)', transport: 'stdio', peer: false, isDirect: true },
  'sb-stdio': { label: 'Switchboard stdio→stdio', transport: 'stdio', peer: false },
  'sb-http': { label: 'Switchboard HTTP→stdio', transport: 'http', peer: false },
  'sb-http-modern': { label: 'Switchboard HTTP→stdio, 2026-07-28 stateless', transport: 'http', peer: false },
  'sb-http-nometrics': { label: 'Switchboard HTTP→stdio, metrics off', transport: 'http', peer: false, optIn: true },
  'base-stdio': { label: 'baseline build stdio→stdio', transport: 'stdio', peer: false, optIn: true, baseline: true },
  'base-http': { label: 'baseline build HTTP→stdio', transport: 'http', peer: false, optIn: true, baseline: true },
  // A remote (Streamable HTTP) server: compared with its own direct path, not with stdio's.
  'direct-remote': { label: 'direct (HTTP, remote server)', transport: 'http', peer: false, isDirect: true },
  'sb-remote': { label: 'Switchboard stdio→HTTP (remote server)', transport: 'stdio', peer: false, direct: 'direct-remote' },
  // The same server answering each POST with an SSE stream, as the official SDKs' servers do by default.
  'direct-remote-sse': { label: 'direct (HTTP, remote server, SSE answers)', transport: 'http', peer: false, isDirect: true },
  'sb-remote-sse': { label: 'Switchboard stdio→HTTP (remote server, SSE answers)', transport: 'stdio', peer: false, direct: 'direct-remote-sse' },
  'floor-stdio': { label: 'floor: bare Node proxy stdio→stdio', transport: 'stdio', peer: false, floor: true },
  'floor-http': { label: 'floor: bare Node proxy HTTP→stdio', transport: 'http', peer: false, floor: true },
  // Byte relays: not MCP proxies (one client, ids and names untouched). Full runs only.
  'relay-node': { label: 'Node byte relay stdio→stdio (no parsing)', transport: 'stdio', peer: false, floor: true, optIn: true },
  'relay-c': { label: 'C byte relay stdio→stdio (no parsing)', transport: 'stdio', peer: false, floor: true, optIn: true },
  'mcp-proxy': { label: 'mcp-proxy HTTP→stdio', transport: 'http', peer: true },
  supergateway: { label: 'supergateway HTTP→stdio (--stateful)', transport: 'http', peer: true },
};

let configCounter = 0;
const configFiles = [];

/** Deletes the config files this process wrote. */
export function removeConfigs() {
  for (const f of configFiles.splice(0)) rmSync(f, { force: true });
}

/**
 * Writes a gateway config for `count` echo servers (each with `tools` extra tools), children on
 * stdio, or the remote servers at `urls` instead.
 */
export function writeGatewayConfig({ count = 1, tools = 0, pageSize = 100, baseline = false, urls } = {}) {
  mkdirSync(OUT_DIR, { recursive: true });
  const file = join(OUT_DIR, `switchboard-${process.pid}-${++configCounter}.yaml`);
  // mode full: the list scenario measures paging the whole catalog (auto would serve search mode).
  // (A baseline build from before catalog.mode knows no such key, and is always full.)
  const lines = ['# written by bench/run.mjs', `catalog: { pageSize: ${pageSize}${baseline ? '' : ', mode: full'} }`, 'servers:'];
  if (urls !== undefined) count = urls.length;
  for (let i = 0; i < count; i++) {
    const name = count === 1 ? 'echo' : `echo-${i}`;
    if (urls !== undefined) {
      lines.push(`  - name: ${name}`, `    url: ${urls[i]}`);
      continue;
    }
    const args = [ECHO, ...(tools > 0 ? ['--tools', String(tools)] : []), '--name', name];
    lines.push(`  - name: ${name}`, `    command: ${JSON.stringify(process.execPath)}`, `    args: ${JSON.stringify(args)}`, '    startupTimeout: 120s');
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  configFiles.push(file);
  return file;
}

/** A free loopback port (closed again at once; the peer binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts bench/echo-server.mjs over Streamable HTTP; resolves { proc, url } once it listens. */
export async function startRemoteEcho(tools = 0, sse = false) {
  let listening;
  const ready = new Promise((resolve) => (listening = resolve));
  // stdin stays a pipe: closing it (stop) ends the server, as it ends the stdio one.
  const proc = start(process.execPath, [ECHO, '--http', '0', ...(sse ? ['--sse'] : []), ...(tools > 0 ? ['--tools', String(tools)] : [])], {
    label: 'echo-server (HTTP)',
    stdio: ['pipe', 'ignore', 'pipe'],
    onStderrLine: (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) listening(m[1]);
    },
  });
  const url = await Promise.race([
    ready,
    proc.exitPromise.then(() => {
      throw new Error(`echo-server --http exited (code ${proc.exitCode})\n${proc.stderrTail()}`);
    }),
  ]);
  return { proc, url };
}

/**
 * Starts the gateway over HTTP and resolves once it prints its URL.
 * extraNodeArgs: e.g. ['--cpu-prof', ...]. Resolves { proc, url, readyMs }.
 */
export function startGatewayHttp(configFile, { extraNodeArgs = [], timeoutMs = 120_000, env, gateway = GATEWAY } = {}) {
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    let done = false;
    const proc = start(process.execPath, [...extraNodeArgs, gateway, 'serve', '-c', configFile, '--http', '127.0.0.1:0'], {
      label: 'switchboard',
      stdio: ['ignore', 'ignore', 'pipe'],
      env: env ? { ...process.env, ...env } : undefined,
      onStderrLine(line) {
        if (done) return;
        const m = /listening on (http:\/\/[^\s"]+)/.exec(line);
        if (m) {
          done = true;
          clearTimeout(timer);
          resolve({ proc, url: m[1], readyMs: Number(process.hrtime.bigint() - t0) / 1e6 });
        }
      },
    });
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      reject(new Error(`switchboard did not print "listening on" within ${timeoutMs} ms\n${proc.stderrTail().slice(-2000)}`));
    }, timeoutMs);
    proc.exitPromise.then(() => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`switchboard exited before listening (code ${proc.exitCode})\n${proc.spawnError ?? ''}${proc.stderrTail().slice(-2000)}`));
    });
  });
}

/** Opens a session with retries while the server is still binding its port. */
async function connectHttp(url, agent, proc, timeoutMs = 30_000, Session = HttpSession) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const session = new Session(url, agent);
    try {
      await session.initialize();
      return session;
    } catch (err) {
      if (proc.exited) throw new Error(`${proc.label} exited (code ${proc.exitCode})\n${proc.stderrTail().slice(-2000)}`);
      const retriable = err?.code === 'ECONNREFUSED' || err?.code === 'UND_ERR_SOCKET' || err?.code === 'ECONNRESET';
      if (!retriable || Date.now() > deadline) throw new Error(`${proc.label}: ${err.message}\n${proc.stderrTail().slice(-2000)}`);
      await sleep(50);
    }
  }
}

/**
 * Opens one path: its process tree and a first, initialized session.
 * opts: { connections (HTTP sockets), servers, tools, pageSize, extraNodeArgs }.
 */
export async function open(path, opts = {}) {
  const { connections = 1, servers = 1, tools = 0, pageSize = 100, extraNodeArgs = [] } = opts;
  const baseline = PATHS[path]?.baseline === true;
  const gateway = baseline ? BASELINE : GATEWAY;
  if (PATHS[path]?.baseline && !gateway) throw new Error(`${path}: no baseline build given (--baseline PATH)`);
  if (path === 'sb-remote' || path === 'sb-remote-sse') {
    const remote = await startRemoteEcho(tools, path === 'sb-remote-sse');
    const client = new StdioClient(process.execPath, [...extraNodeArgs, gateway, 'serve', '-c', writeGatewayConfig({ urls: [remote.url], pageSize }), '--stdio'], { label: 'switchboard' });
    try {
      await client.initialize();
    } catch (err) {
      await remote.proc.stop();
      throw err;
    }
    return {
      path,
      pid: client.pid,
      proc: client.proc,
      session: client,
      serverPids: [remote.proc.pid],
      toolName: 'echo__echo',
      tool: (base) => `echo__${base}`,
      close: async () => {
        await client.close();
        await remote.proc.stop();
      },
    };
  }
  if (path === 'direct' || path === 'sb-stdio' || path === 'base-stdio' || path === 'floor-stdio' || path === 'relay-node' || path === 'relay-c') {
    const echoArgs = [ECHO, ...(tools > 0 ? ['--tools', String(tools)] : [])];
    const client =
      path === 'direct'
        ? new StdioClient(process.execPath, echoArgs, { label: 'echo-server' })
        : path === 'relay-node'
          ? new StdioClient(process.execPath, [NODE_RELAY, process.execPath, ...echoArgs], { label: 'byte-relay.mjs' })
          : path === 'relay-c'
            ? new StdioClient(C_RELAY, [process.execPath, ...echoArgs], { label: 'byte-relay' })
            : path === 'floor-stdio'
              ? new StdioClient(process.execPath, [...extraNodeArgs, FLOOR, '--stdio', '--', process.execPath, ...echoArgs], { label: 'floor-proxy' })
              : new StdioClient(process.execPath, [...extraNodeArgs, gateway, 'serve', '-c', writeGatewayConfig({ count: servers, tools, pageSize, baseline }), '--stdio'], {
                  label: 'switchboard',
                });
    await client.initialize();
    const tool = (base) => (path === 'direct' || path.startsWith('relay-') ? base : `${servers === 1 ? 'echo' : 'echo-0'}__${base}`);
    return {
      path,
      pid: client.pid,
      proc: client.proc,
      session: client,
      toolName: tool('echo'),
      tool,
      close: () => client.close(),
    };
  }

  const agent = createAgent(connections);
  let proc;
  let url;
  let toolName = 'echo';
  let readyMs;
  if (path === 'sb-http' || path === 'sb-http-modern' || path === 'sb-http-nometrics' || path === 'base-http') {
    const env = path === 'sb-http-nometrics' ? { SWITCHBOARD_METRICS: 'off' } : undefined;
    ({ proc, url, readyMs } = await startGatewayHttp(writeGatewayConfig({ count: servers, tools, pageSize, baseline }), { extraNodeArgs, env, gateway }));
    toolName = servers === 1 ? 'echo__echo' : 'echo-0__echo';
  } else if (path === 'direct-remote' || path === 'direct-remote-sse') {
    ({ proc, url } = await startRemoteEcho(tools, path === 'direct-remote-sse'));
  } else if (path === 'floor-http') {
    let listening;
    const ready = new Promise((resolve) => (listening = resolve));
    proc = start(process.execPath, [...extraNodeArgs, FLOOR, '--http', '--', process.execPath, ECHO, ...(tools > 0 ? ['--tools', String(tools)] : [])], {
      label: 'floor-proxy',
      stdio: ['ignore', 'ignore', 'pipe'],
      onStderrLine: (line) => {
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) listening(m[1]);
      },
    });
    url = await Promise.race([
      ready,
      proc.exitPromise.then(() => {
        throw new Error(`floor-proxy exited (code ${proc.exitCode})\n${proc.stderrTail()}`);
      }),
    ]);
  } else if (path === 'mcp-proxy') {
    const port = await freePort();
    const echoArgs = [ECHO, ...(tools > 0 ? ['--tools', String(tools)] : [])];
    proc = start(process.execPath, [MCP_PROXY_BIN, '--port', String(port), '--host', '127.0.0.1', '--', process.execPath, ...echoArgs], {
      label: 'mcp-proxy',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = `http://127.0.0.1:${port}/mcp`;
  } else if (path === 'supergateway') {
    const port = await freePort();
    const cmd = [process.execPath, ECHO, ...(tools > 0 ? ['--tools', String(tools)] : [])].map((a) => `'${a}'`).join(' ');
    proc = start(process.execPath, [SUPERGATEWAY_BIN, '--stdio', cmd, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'], {
      label: 'supergateway',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = `http://127.0.0.1:${port}/mcp`;
  } else {
    throw new Error(`unknown path ${path}`);
  }
  let session;
  try {
    session = await connectHttp(url, agent, proc, undefined, path === 'sb-http-modern' ? ModernHttpSession : HttpSession);
  } catch (err) {
    await proc.stop();
    await agent.close().catch(() => {});
    throw err;
  }
  return {
    path,
    pid: proc.pid,
    proc,
    session,
    url,
    agent,
    toolName,
    tool: (base) => (path.startsWith('sb-http') || path === 'base-http' || path === 'floor-http' ? `${servers === 1 ? 'echo' : 'echo-0'}__${base}` : base),
    readyMs,
    /** Another initialized session on the same endpoint (memory per session). */
    newSession: () => connectHttp(url, agent, proc),
    close: async () => {
      await session.close();
      await agent.close().catch(() => {});
      await proc.stop();
    },
  };
}
