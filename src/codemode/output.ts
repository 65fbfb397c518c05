// What a run hands back besides its outcome: console lines (bounded in count and characters)
// and the returned value as JSON text, cut to a token budget with a note saying so.
// Tokens are the project's cheap estimate (search/tokens.ts): no tokenizer is loaded for this.

import { estimateTokens } from '../search/tokens.js';

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

export interface LogLine {
  level: LogLevel;
  text: string;
}

const LEVELS = new Set<string>(['log', 'info', 'warn', 'error', 'debug']);
/** One line is never longer than this, whatever the run's character budget. */
export const MAX_LINE_CHARS = 4_000;

export class LogCollector {
  readonly lines: LogLine[] = [];
  private chars = 0;
  private dropped = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxChars: number,
    private readonly onLog?: (line: LogLine) => void,
  ) {}

  get full(): boolean {
    return this.lines.length >= this.maxLines || this.chars >= this.maxChars;
  }

  drop(): void {
    this.dropped++;
  }

  add(level: string, text: string): void {
    const room = Math.min(MAX_LINE_CHARS, this.maxChars - this.chars);
    if (this.lines.length >= this.maxLines || room <= 0) {
      this.dropped++;
      return;
    }
    const line: LogLine = {
      level: LEVELS.has(level) ? (level as LogLevel) : 'log',
      text: text.length > room ? `${text.slice(0, room)}… [line cut at ${room} characters]` : text,
    };
    this.chars += line.text.length;
    this.lines.push(line);
    try {
      this.onLog?.(line);
    } catch {
      // A listener's failure is the listener's: the run and its other lines go on.
    }
  }

  /** The kept lines, and one more saying how many were dropped, if any. */
  result(): LogLine[] {
    if (this.dropped === 0) return this.lines;
    const note = `… ${this.dropped} more console line(s) dropped (limits codeMode.maxLogLines / maxLogChars)`;
    return [...this.lines, { level: 'warn', text: note }];
  }
}

export interface ShapedOutput {
  /** The returned value (JSON-safe), absent when the text had to be cut. */
  value?: unknown;
  /** The value as compact JSON, cut with a note when over the budget. */
  json: string;
  truncated: boolean;
  /** Estimated tokens of the whole value, before any cut. */
  tokens: number;
}

/** The returned value may nest this deep: the gateway serialises it again, recursively. */
const MAX_RESULT_DEPTH = 128;

/** How many characters of JSON could fit `maxTokens` at best (all ASCII): the sandbox cuts there first. */
export function maxOutputChars(maxTokens: number): number {
  return Math.ceil(maxTokens * 4.2) + 16;
}

/**
 * Shapes the JSON the script returned. `fullLength` is the length before the sandbox's own cut
 * (which keeps huge strings from being copied out of it).
 */
export function shapeOutput(text: string, fullLength: number, maxTokens: number): ShapedOutput {
  if (tooDeep(text, MAX_RESULT_DEPTH)) throw new Error(`it nests deeper than ${MAX_RESULT_DEPTH} levels`);
  const cutInside = fullLength > text.length;
  const tokens = cutInside ? Math.ceil(estimateTokens(text) * (fullLength / Math.max(text.length, 1))) : estimateTokens(text);
  if (!cutInside && tokens <= maxTokens) return { value: parseSafe(text), json: text, truncated: false, tokens };
  const note = `… [truncated: the result is about ${tokens} tokens, over the limit of ${maxTokens} (codeMode.maxOutputTokens); return only what you need]`;
  const budget = Math.max(0, maxTokens - estimateTokens(note));
  // Shrink in proportion to what the text in hand costs (the sandbox may have cut it already: the
  // whole value's figure would cut it that much shorter again), then by tenths: the estimate is
  // not linear in characters (scripts differ).
  const inHand = cutInside ? estimateTokens(text) : tokens;
  let end = Math.min(text.length, Math.floor(text.length * (budget / Math.max(inHand, 1))));
  while (end > 0 && estimateTokens(text.slice(0, end)) > budget) end = Math.floor(end * 0.9);
  return { json: text.slice(0, end) + note, truncated: true, tokens };
}

/**
 * True when the JSON text nests deeper than `max` (arrays and objects), judged on the text. The
 * gateway's jsonrpc/depth.ts does the same for messages; code mode keeps no edge into the gateway.
 */
export function tooDeep(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: its closing quote is the next one after an even run of backslashes.
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * JSON.parse without `__proto__` keys: the value may reach code that merges objects. The reviver
 * (slow) runs only when such a key can be there: literally, or spelled with \u escapes.
 */
export function parseSafe(text: string): unknown {
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
