// How many tokens a text costs a model: exact with the o200k BPE (`gpt-tokenizer`, loaded on
// first use only, since start-up time matters), or a cheap estimate that needs nothing loaded.
// Also the one serialisation of a tool list "as a client passes it to a model".

export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/** Loads the o200k tokenizer once (~100 ms, ~10 MB) and returns its counter. */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
  return loading;
}

/** Exact o200k token count of a text (loads the tokenizer on first call). */
export async function countTokens(text: string): Promise<number> {
  return (await loadTokenCounter())(text);
}

/**
 * Cheap estimate without a tokenizer: tool-list JSON averages 4.3–4.8 ASCII characters per o200k
 * token (measured on 33 real catalogs); 4.2 errs a little high, which is the safe side for a
 * budget. Other scripts cost about one token per character. bench/search reports the error.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4.2 + other * 0.9);
}

export interface ModelTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/**
 * A tool list as a client hands it to a model: name, description and input schema per tool,
 * compact JSON (the shape all the large model APIs take, give or take a key's name).
 */
export function serializeToolsForModel(tools: readonly ModelTool[]): string {
  return JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema ?? { type: 'object' } })));
}

/**
 * Tokens of a tool list as a model receives it: exact with a loaded counter (see
 * loadTokenCounter), the cheap estimate without one. For deciding when a profile's list is
 * over its token budget.
 */
export function toolListTokens(tools: readonly ModelTool[], counter?: TokenCounter): number {
  if (counter !== undefined) return counter(serializeToolsForModel(tools));
  // The estimate of the whole text, summed tool by tool (each tool's counted once per object):
  // the same figure, without serialising a large list again after each change.
  let ascii = Math.max(2, tools.length + 1); // [ ] and the commas between tools
  let other = 0;
  for (const t of tools) {
    let c = charCounts.get(t);
    if (c === undefined) charCounts.set(t, (c = countChars(serializeToolsForModel([t]).slice(1, -1))));
    ascii += c.ascii;
    other += c.other;
  }
  return Math.ceil(ascii / 4.2 + other * 0.9);
}

const charCounts = new WeakMap<ModelTool, { ascii: number; other: number }>();

function countChars(text: string): { ascii: number; other: number } {
  let ascii = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x80) ascii++;
  return { ascii, other: text.length - ascii };
}
