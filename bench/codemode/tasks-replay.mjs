// Replaying a task through the gateway, and counting what a model would have read and written.
// PlainTrace: one model turn per batch of parallel tools/call requests, each result's text entering
// the context. CodeTrace: one model turn per run_code call. Both time only the tool work through
// the gateway (no model latency) and count o200k tokens the way a client hands them to a model.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { StdioClient } from '../lib/stdio-client.mjs';
import { QUOTA_ENV } from './tasks-fixture.mjs';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { serializeToolsForModel, estimateTokens } = await import(join(ROOT, 'dist/search/tokens.js'));
export { estimateTokens };

export const tokens = (text) => countTokens(text);

/** The text a model reads from a tool result: its text blocks, one after the other. */
export function textOf(result) {
  return (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** A config `name` for one gateway in `mode` (full | code) over the three reference servers. */
export function writeConfig(dir, name, mode, { ws, memoryFile, extra = {} }) {
  const pkg = (name, ...args) => ({ command: process.execPath, args: [join(ROOT, 'config/run-package.mjs'), name, ...args] });
  const config = {
    naming: { separator: '__', mode: 'always' },
    catalog: { mode, ...(extra.catalog ?? {}) },
    ...(extra.top ?? {}),
    servers: [
      { name: 'everything', ...pkg('@modelcontextprotocol/server-everything', 'stdio'), env: QUOTA_ENV },
      { name: 'memory', ...pkg('@modelcontextprotocol/server-memory'), env: { MEMORY_FILE_PATH: memoryFile } },
      { name: 'files', ...pkg('@modelcontextprotocol/server-filesystem', ws) },
    ],
  };
  const path = join(dir, `switchboard-${name}.yaml`);
  writeFileSync(path, JSON.stringify(config, null, 2)); // JSON is YAML
  return path;
}

/**
 * A gateway on stdio with one initialized client session; `tools` is its whole tools/list. With
 * `traceGc`, Node's --trace-gc lines (printed on the gateway's stdout, which the client skips as
 * not JSON) are kept in `gc`: { kind, pauseMs } per collection.
 */
export async function openGateway(cli, configPath, label, { traceGc = false } = {}) {
  const args = [...(traceGc ? ['--trace-gc'] : []), cli, 'serve', '--stdio', '-c', configPath];
  const client = new StdioClient(process.execPath, args, { label, env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'warn' } });
  const gc = [];
  if (traceGc) {
    client.proc.child.stdout.on('data', (chunk) => {
      // "Mark-Compact 13.4 (31.1) -> 12.8 (31.3) MB, 1.45 / 0.01 ms  (+ 56.5 ms in 47 steps ...": the
      // pause, then the incremental marking done beforehand, also on the main thread.
      for (const m of String(chunk).matchAll(/: (Scavenge|Mark-Compact|Mark-Sweep)[^\n]*?MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in)?/g)) {
        gc.push({ kind: m[1], pauseMs: Number(m[2]), stepsMs: Number(m[3] ?? 0) });
      }
    });
  }
  await client.initialize();
  const tools = [];
  let cursor;
  do {
    const page = await client.request('tools/list', cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return { client, pid: client.pid, tools, gc, listTokens: tokens(serializeToolsForModel(tools)), close: () => client.close() };
}

/** What a trace cost: per turn (written, read, ms, calls) and the totals. */
function summarize(listTokens, turns) {
  let context = listTokens;
  let prefill = 0;
  for (const t of turns) {
    prefill += context; // the model reads everything so far, then makes this turn's calls
    context += t.written + t.read;
  }
  prefill += context; // the final turn: the answer
  const sum = (k) => turns.reduce((a, t) => a + t[k], 0);
  return { list: listTokens, turns: turns.length + 1, calls: sum('calls'), written: sum('written'), read: sum('read'), context, prefill, ms: sum('ms'), steps: turns.map((t) => t.what) };
}

/** Plain tool calls: `turn([[name, args], ...])` runs one model turn's calls in parallel. */
export class PlainTrace {
  constructor(gw) {
    this.gw = gw;
    this.turns = [];
  }

  turn = async (calls) => {
    const t0 = performance.now();
    const results = await Promise.all(calls.map(([name, args]) => this.gw.client.request('tools/call', { name, arguments: args })));
    const ms = performance.now() - t0;
    const texts = results.map(textOf);
    results.forEach((r, i) => {
      if (r.isError) throw new Error(`plain trace: ${calls[i][0]} failed: ${texts[i].slice(0, 300)}`);
    });
    this.turns.push({
      what: describeBatch(calls.map(([name]) => name)),
      calls: calls.length,
      written: calls.reduce((a, [name, args]) => a + tokens(name + JSON.stringify(args)), 0),
      read: texts.reduce((a, t) => a + tokens(t), 0),
      ms,
    });
    return texts;
  };

  summary() {
    return summarize(this.gw.listTokens, this.turns);
  }
}

function describeBatch(names) {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, c]) => (c > 1 ? `${c}× ${n}` : n)).join(' + ');
}

/** Code mode: `run(code)` is one model turn (one run_code call); resolves with the run's result. */
export class CodeTrace {
  constructor(gw, runCodeTool = 'run_code') {
    this.gw = gw;
    this.tool = runCodeTool;
    this.turns = [];
    this.notes = [];
  }

  /** One turn of search_tools calls in parallel (run_code's description without declarations). */
  search = async (find) => {
    const calls = find.map(([server, query]) => ({ query, server: [server], limit: 3 }));
    const t0 = performance.now();
    const results = await Promise.all(calls.map((args) => this.gw.client.request('tools/call', { name: 'search_tools', arguments: args })));
    const ms = performance.now() - t0;
    const texts = results.map(textOf);
    find.forEach(([server, query, tool], i) => {
      if (results[i].isError || !texts[i].includes(tool)) this.notes.push(`search_tools ${JSON.stringify(calls[i])} did not find ${server}.${tool}`);
      else if (!JSON.stringify(results[i].structuredContent ?? {}).includes('"signature"')) this.notes.push(`search_tools ${JSON.stringify(query)}: no signature in structuredContent`);
    });
    this.turns.push({
      what: `${calls.length}× search_tools`,
      calls: calls.length,
      written: calls.reduce((a, args) => a + tokens(`search_tools${JSON.stringify(args)}`), 0),
      read: texts.reduce((a, t) => a + tokens(t), 0),
      ms,
    });
  };

  run = async (code, what = 'run_code') => {
    const t0 = performance.now();
    const r = await this.gw.client.request('tools/call', { name: this.tool, arguments: { code } });
    const ms = performance.now() - t0;
    const text = textOf(r);
    if (r.isError) throw new Error(`run_code failed: ${text.slice(0, 600)}`);
    const sc = r.structuredContent;
    if (!sc || !('result' in sc)) throw new Error(`run_code: no structuredContent.result (got ${JSON.stringify(r).slice(0, 300)})`);
    // The contract: the text is the result's JSON (then console lines, if any).
    const json = JSON.stringify(sc.result);
    if (!text.startsWith(json.slice(0, 200)) && !text.includes('truncated')) this.notes.push(`text content does not start with the result's JSON: ${text.slice(0, 120)}`);
    if (typeof sc.calls !== 'number') this.notes.push(`structuredContent.calls is ${JSON.stringify(sc.calls)}, not a number`);
    this.turns.push({ what, calls: sc.calls ?? 0, written: tokens(this.tool + JSON.stringify({ code })), read: tokens(text), ms, logs: sc.logs });
    return sc.result;
  };

  summary() {
    return summarize(this.gw.listTokens, this.turns);
  }
}

/**
 * The script a model writes, from a function in this folder: its body, dedented, with the
 * placeholder `__WS__` replaced by the workspace's path. Written as real functions so that they
 * are checked as JavaScript here; `tools` is the sandbox's global.
 */
export function scriptOf(fn, ws) {
  const src = fn.toString();
  const body = src.slice(src.indexOf('{') + 1, src.lastIndexOf('}'));
  const lines = body.split('\n');
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines.at(-1).trim()) lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
  return lines
    .map((l) => l.slice(indent))
    .join('\n')
    .replaceAll('__WS__', ws);
}
