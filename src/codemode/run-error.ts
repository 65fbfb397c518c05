// How a run fails: one kind per limit or cause, the message, and the script's own line (the
// wrapper's extra line taken off). Also the JSON envelopes nested calls answer the sandbox with.

import { LINE_OFFSET, SCRIPT_FILE } from './prelude.js';

export type RunErrorKind =
  | 'syntax' // the script does not parse (as JavaScript, nor as TypeScript)
  | 'exception' // the script threw and did not catch (an McpError from a nested call included)
  | 'timeout' // limits.wallMs
  | 'slice' // limits.sliceMs: computed too long without awaiting
  | 'memory' // limits.memoryBytes
  | 'stack' // limits.stackBytes: recursion too deep
  | 'calls' // limits.maxCalls
  | 'code-size' // limits.maxCodeChars
  | 'result' // the returned value cannot be serialised as JSON
  | 'stalled' // awaits a promise nothing will settle (no call, timer or job pending)
  | 'aborted' // the caller's signal (client cancelled, session closed, gateway draining)
  | 'internal'; // the engine failed: a bug, reported as such

export interface RunError {
  kind: RunErrorKind;
  message: string;
  /** The script's line (1-based) where it failed, when known. */
  line?: number;
  /** The thrown value's name (TypeError, McpError…), for kind "exception". */
  name?: string;
  /** An McpError's code and data, when the uncaught error was one. */
  code?: number;
  data?: unknown;
}

/** The one-line text a client sees for a failed run. */
export function formatRunError(e: RunError): string {
  const where = e.line === undefined ? '' : ` (line ${e.line})`;
  const what = e.name && e.kind === 'exception' ? `${e.name}: ${e.message}` : e.message;
  return `${what}${where}`;
}

/** The script's line in a QuickJS stack ("    at f (script.js:12:5)"): the first frame in the script. */
export function scriptLine(stack: unknown, scriptLines: number): number | undefined {
  if (typeof stack !== 'string') return undefined;
  const re = new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`, 'g');
  for (const m of stack.matchAll(re)) {
    const line = Number(m[1]) - LINE_OFFSET;
    if (line >= 1 && line <= scriptLines) return line;
  }
  return undefined;
}

/** Classifies what the engine threw (already dumped to a host value). */
export function classifyThrown(thrown: unknown, scriptLines: number): RunError {
  const e = (typeof thrown === 'object' && thrown !== null ? thrown : { message: String(thrown) }) as Record<string, unknown>;
  const name = typeof e.name === 'string' ? e.name : undefined;
  const message = typeof e.message === 'string' ? e.message : safeJson(thrown);
  const line = scriptLine(e.stack, scriptLines);
  if (name === 'InternalError' && message === 'out of memory') {
    return { kind: 'memory', message: 'out of memory (limit codeMode.memory)', line };
  }
  if ((name === 'InternalError' && message === 'stack overflow') || (name === 'RangeError' && /call stack/i.test(message))) {
    return { kind: 'stack', message: 'stack overflow: recursion too deep (limit codeMode.stack)', line };
  }
  if (name === 'ResultError') return { kind: 'result', message };
  const out: RunError = { kind: 'exception', message: clip(message, MAX_MESSAGE_CHARS), line };
  if (name !== undefined) out.name = clip(name, 100);
  if (typeof e.code === 'number') out.code = e.code;
  if (e.data !== undefined) {
    const json = safeJson(e.data);
    out.data = json.length <= MAX_DATA_CHARS ? e.data : `[data omitted: ${json.length} characters]`;
  }
  return out;
}

/** What the client sees of an uncaught error is bounded: the script chooses what it throws. */
const MAX_MESSAGE_CHARS = 2_000;
const MAX_DATA_CHARS = 4_000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** An error a nested call answers with: what the script's McpError carries. */
export interface CallFailure {
  code: number;
  message: string;
  data?: unknown;
}

export function callFailure(code: number, message: string, data?: unknown): CallFailure & Error {
  return Object.assign(new Error(message), { code, data });
}

export function okEnvelope(value: unknown, maxChars: number, label: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify({ ok: true, value: value === undefined ? null : value });
  } catch (err) {
    return errorEnvelope(callFailure(-32603, `the answer of ${label} is not JSON: ${(err as Error).message}`), {});
  }
  if (text.length > maxChars) {
    return errorEnvelope(callFailure(-32603, `the answer of ${label} is ${text.length} characters, more than a run takes (${maxChars})`), {});
  }
  return text;
}

/** Host rejections become {code, message, data}; data always says which server and tool. */
export function errorEnvelope(err: unknown, where: { server?: string; tool?: string }): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;
  const code = typeof e.code === 'number' && Number.isFinite(e.code) ? e.code : -32603;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const base = typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data) ? e.data : e.data === undefined ? {} : { detail: e.data };
  const data = { ...base, ...where };
  try {
    return JSON.stringify({ ok: false, error: { code, message, data } });
  } catch {
    return JSON.stringify({ ok: false, error: { code, message, data: where } });
  }
}

export function isSyntaxError(thrown: unknown): boolean {
  return typeof thrown === 'object' && thrown !== null && (thrown as { name?: unknown }).name === 'SyntaxError';
}

/** JavaScript and TypeScript parsers disagree on where a TS script fails: the one that got further is right. */
export function syntaxError(js: RunError, ts?: { message: string; line?: number }): RunError {
  const tsLine = ts?.line === undefined ? undefined : ts.line - LINE_OFFSET;
  if (ts && tsLine !== undefined && (js.line === undefined || tsLine > js.line)) {
    return { kind: 'syntax', message: `SyntaxError: ${ts.message.replace(/\s*\(\d+:\d+\)$/, '')}`, line: tsLine };
  }
  return { kind: 'syntax', message: `SyntaxError: ${js.message}`, ...(js.line === undefined ? {} : { line: js.line }) };
}
