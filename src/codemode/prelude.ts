// The JavaScript that runs inside the sandbox before the script: builds `tools`, `console`,
// `McpError`, `setTimeout`/`clearTimeout` on one host function (`__sb_host`), then removes that
// function from the global scope. Only strings and numbers cross: the host trusts none of them.

/** What the prelude is told: the callable tools by index, and the output bound. */
export interface PreludeConfig {
  /** [safe server name, original server name, [[safe tool name, original tool name, index]]] */
  servers: [string, string, [string, string, number][]][];
  /** The returned JSON is cut to this many characters inside the sandbox (the host cuts finer). */
  maxOutputChars: number;
  /** What crosses is cut (or refused) inside first: the host never copies a huge string out. */
  maxArgChars: number;
  maxLineChars: number;
  maxQueryChars: number;
}

export const PRELUDE_FILE = 'prelude.js';
export const SCRIPT_FILE = 'script.js';
/** The script is the body of an async function: one line before it, one after. */
export const LINE_OFFSET = 1;

export function wrapScript(code: string): string {
  return `__sb_run(async () => {\n${code}\n});`;
}

export const PRELUDE = String.raw`(function (host, config) {
  'use strict';
  const g = globalThis;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const define = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const BaseError = Error;

  class McpError extends BaseError {
    constructor(code, message, data) {
      super(message);
      this.name = 'McpError';
      this.code = code;
      this.data = data;
    }
  }

  // The host answers every asynchronous request with a JSON envelope: {ok, value} or {ok, error}.
  // The error is given the stack of the call site, so that an uncaught one names the script's line.
  function settle(envelope, site) {
    const answer = parse(envelope);
    if (answer.ok) return answer.value;
    const e = new McpError(answer.error.code, answer.error.message, answer.error.data);
    e.stack = site.stack;
    throw e;
  }
  function request(op, a, b) {
    const site = new BaseError();
    return host(op, a, b).then((envelope) => settle(envelope, site));
  }
  // A leading "!" marks arguments that cannot cross (no JSON text starts with it); a NUL would
  // not survive the trip, since the host reads strings as C strings.
  function serialise(args) {
    let json;
    try {
      json = args === undefined ? '{}' : stringify(args);
    } catch (err) {
      return '!' + String(err && err.message);
    }
    if (json === undefined) return '!' + 'arguments must be an object';
    return json.length > config.maxArgChars ? '!' + 'arguments are ' + json.length + ' characters; at most ' + config.maxArgChars : json;
  }
  const cut = (s, n) => (s.length > n ? s.slice(0, n + 1) : s);

  const tools = create(null);
  const aliases = [];
  for (const [serverName, serverOriginal, entries] of config.servers) {
    const server = create(null);
    const toolAliases = [];
    for (const [toolName, toolOriginal, index] of entries) {
      const fn = function (args) { return request('call', index, serialise(args)); };
      define(fn, 'name', { value: toolName });
      define(server, toolName, { value: fn, enumerable: true });
      if (toolOriginal !== toolName) toolAliases.push([toolOriginal, fn]);
    }
    for (const [name, fn] of toolAliases) if (!(name in server)) define(server, name, { value: fn });
    define(tools, serverName, { value: freeze(server), enumerable: true });
    if (serverOriginal !== serverName) aliases.push([serverOriginal, server]);
  }
  for (const [name, server] of aliases) if (!(name in tools)) define(tools, name, { value: server });
  define(tools, 'search', { value: function search(query) { return request('search', cut(String(query), config.maxQueryChars)); } });
  define(tools, 'describe', { value: function describe(name) { return request('describe', cut(String(name), config.maxQueryChars)); } });
  define(g, 'tools', { value: freeze(tools), enumerable: true });
  define(g, 'McpError', { value: McpError, writable: true, configurable: true });

  function text(value) {
    if (typeof value === 'string') return value;
    if (value instanceof BaseError) return value.name + ': ' + value.message;
    try {
      const json = stringify(value);
      return json === undefined ? String(value) : json;
    } catch (err) {
      try { return String(value); } catch (err2) { return '[unprintable]'; }
    }
  }
  const console = create(null);
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    // The host reads strings as C strings: a NUL would end the line there, so it is shown as ␀.
    define(console, level, { value: function (...values) { host('log', level, cut(values.map(text).join(' '), config.maxLineChars).replace(/\u0000/g, '\u2400')); }, enumerable: true });
  }
  define(g, 'console', { value: freeze(console), writable: true, configurable: true });

  // Timers wait on the host's clock; a timer still pending when the script returns never fires.
  let nextTimer = 1;
  const timers = new Set();
  define(g, 'setTimeout', { writable: true, configurable: true, value: function setTimeout(fn, ms, ...args) {
    if (typeof fn !== 'function') throw new TypeError('setTimeout: the callback must be a function');
    const id = nextTimer++;
    timers.add(id);
    host('timer', Number(ms) || 0).then(() => {
      if (!timers.delete(id)) return;
      try { fn(...args); } catch (err) { host('log', 'error', 'Uncaught in a setTimeout callback: ' + text(err)); }
    });
    return id;
  } });
  define(g, 'clearTimeout', { writable: true, configurable: true, value: function clearTimeout(id) { timers.delete(id); } });

  function bigints(key, value) { return typeof value === 'bigint' ? String(value) : value; }
  define(g, '__sb_run', { configurable: true, value: function (main) {
    delete g.__sb_run;
    return main().then((value) => {
      let json;
      try {
        json = stringify(value === undefined ? null : value, bigints);
      } catch (err) {
        const e = new TypeError('the returned value is not JSON-serialisable: ' + (err && err.message));
        e.name = 'ResultError';
        throw e;
      }
      if (json === undefined) json = 'null';
      return [json.length, json.length > config.maxOutputChars ? json.slice(0, config.maxOutputChars) : json];
    });
  } });

  // Nothing the host gave stays reachable by name, and no shared memory between agents.
  delete g.__sb_host;
  delete g.__sb_config;
  delete g.SharedArrayBuffer;
  delete g.Atomics;
  delete g.WebAssembly;
})(globalThis.__sb_host, JSON.parse(globalThis.__sb_config));
`;
