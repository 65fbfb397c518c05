// The server directory a model reads in search mode: one line per server, saying what it is for
// and how many tools it has, so a model can aim its query (and `server`) before it searches.
// Pure. What a server is for comes, in order, from the operator (config `description`), from the
// server itself (serverInfo.description, then its instructions' first sentence, then a title that
// says more than the name), else from the words that set its tools apart from other servers'.

import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { splitName } from './tokenize.js';

export interface DirectoryServer {
  /** Configured server name (what `server` takes). */
  name: string;
  /** The operator's one line (config `description`). */
  description?: string;
  /** What the server says of itself: serverInfo.title, serverInfo.description, instructions. */
  title?: string;
  serverDescription?: string;
  instructions?: string;
  tools: readonly { name: string; title?: string; description?: string }[];
}

export interface DirectoryLine {
  server: string;
  purpose: string;
  tools: number;
  /** Where the purpose came from. */
  from: 'config' | 'server' | 'instructions' | 'title' | 'tools';
}

/** Most words of a purpose line: enough to tell servers apart, little enough for 70 in 2,000 tokens. */
export const PURPOSE_WORDS = 14;
/** Words named when the purpose is read off the tools. */
const TOOL_WORDS = 7;
/** Up to this many tools, the line names them instead. */
const FEW_TOOLS = 3;
const STOP = new Set([...eng, 'mcp', 'server', 'servers', 'tool', 'tools', 'model', 'context', 'protocol', 'api', 'use', 'using', 'via', 'allows', 'lets', 'provides', 'enables']);

/** Cuts a text to its first sentence and at most `PURPOSE_WORDS` words, marking what was cut. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // A sentence ends at ". " / "! " / "? " / a line-break-separated heading, not at "e.g." or "v1.2".
  const end = /(?<![A-Z]|\b[a-z]|\be\.g|\bi\.e|\betc)[.!?](?=\s|$)/.exec(flat);
  const sentence = (end ? flat.slice(0, end.index) : flat).trim();
  const words = sentence.split(' ');
  return words.length <= PURPOSE_WORDS ? sentence : `${words.slice(0, PURPOSE_WORDS).join(' ')}…`;
}

/** Strips the opening every server description shares ("A Model Context Protocol server that…"). */
function withoutPreamble(text: string): string {
  return text
    .replace(/^\s*(an?|the|this)\s+/i, '')
    .replace(/^(official\s+)?((model\s+context\s+protocol|mcp)\s+)?(server|integration|implementation)\b\s*(for|to|that|which|providing|offering|exposing)?\s*/i, '')
    .replace(/^(provides?|offers?|exposes?|gives?|enables?|allows?)\s+(access\s+to\s+)?/i, '')
    .trim();
}

/** Whether a title says something the server's name does not (not just "GitHub MCP Server"). */
function informativeTitle(title: string, name: string): boolean {
  const own = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = title
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !own.includes(w) && !STOP.has(w));
  return words.length >= 2;
}

/**
 * The first sentence of a server's instructions, when it says what the server is rather than how
 * to use it: instructions are mostly usage rules for a model ("Use X when…", "You are…", a
 * heading), which say nothing a directory needs.
 */
function purposeOfInstructions(text: string, toolNames: readonly string[]): string | undefined {
  const firstLine = text.trim().split('\n')[0]!.trim();
  if (firstLine.startsWith('#') || firstLine.endsWith(':')) return undefined;
  // Up to the first blank line or list: instructions are often wrapped at a fixed width.
  const paragraph = text.trim().split(/\n\s*(?:\n|[-*] )/)[0]!;
  const sentence = firstSentence(paragraph);
  if (/^(use|you|before|always|never|if|when|do|don't|please|note|important)\b/i.test(sentence)) return undefined;
  if (toolNames.some((t) => t.length > 3 && sentence.includes(t))) return undefined;
  const purpose = withoutPreamble(sentence);
  return purpose.split(' ').length >= 3 ? purpose : undefined;
}

function capitalised(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** A word's stem, remembered: tool names repeat their words, and directories are made per snapshot. */
const stems = new Map<string, string>();
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= 100_000) stems.clear();
    stems.set(word, (stem = stemmer(word)));
  }
  return stem;
}

interface ServerWords {
  /** stem → weighted count over the server's tools (each tool counts a word once). */
  counts: Map<string, number>;
  /** stem → its forms as the tools write them, with their counts. */
  forms: Map<string, Map<string, number>>;
}

/** Per tools array: a server whose tools did not change is not read again (server-directory.ts keeps the array). */
const wordsCache = new WeakMap<readonly DirectoryServer['tools'][number][], { name: string; words: ServerWords }>();

/** A server's tool words, counted by stem (issue/issues are one word), without the words of its own name. */
function serverWords(s: DirectoryServer): ServerWords {
  const hit = wordsCache.get(s.tools);
  if (hit && hit.name === s.name) return hit.words;
  const counts = new Map<string, number>();
  const forms = new Map<string, Map<string, number>>();
  const own = new Set(splitName(s.name).map(stemOf));
  for (const t of s.tools) {
    const name = splitName(t.name);
    // Tool names are mostly verb first (get_issue, create_page): the first word says less of the domain.
    const weights = new Map<string, [number, string]>();
    const note = (w: string, weight: number) => {
      if (w.length <= 2 || STOP.has(w) || /^\d+$/.test(w)) return;
      const stem = stemOf(w);
      if (own.has(stem)) return;
      const had = weights.get(stem);
      if (!had || had[0] < weight) weights.set(stem, [weight, w]);
    };
    name.forEach((w, i) => {
      note(w, i === 0 && name.length > 1 ? 0.5 : 1);
    });
    // Titles are prose: split at spaces and punctuation only ("GitHub" stays one word).
    for (const w of (t.title ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) note(w, 1);
    for (const [stem, [weight, w]] of weights) {
      counts.set(stem, (counts.get(stem) ?? 0) + weight);
      const f = forms.get(stem) ?? new Map<string, number>();
      f.set(w, (f.get(w) ?? 0) + 1);
      forms.set(stem, f);
    }
  }
  const words = { counts, forms };
  wordsCache.set(s.tools, { name: s.name, words });
  return words;
}

/** In how many servers each stem occurs. */
function serverFrequencies(servers: readonly DirectoryServer[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const s of servers) for (const w of serverWords(s).counts.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

/**
 * The words that set one server's tools apart: each word of its tools' names and titles, counted
 * once per tool, weighted by how few servers use it (idf over servers). General verbs every
 * server has (get, list, create) fall away by themselves; no word list decides.
 */
function distinctiveWords(s: DirectoryServer, df: ReadonlyMap<string, number>, n: number): string[] {
  const { counts, forms } = serverWords(s);
  // The best TOOL_WORDS by score, then stem: kept in order as they come (a server may have thousands).
  const best: (readonly [string, number])[] = [];
  const before = (a: readonly [string, number], b: readonly [string, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  for (const [w, c] of counts) {
    const scored = [w, c * Math.log(1 + n / df.get(w)!)] as const;
    if (best.length === TOOL_WORDS && !before(scored, best[TOOL_WORDS - 1]!)) continue;
    let i = best.length;
    while (i > 0 && before(scored, best[i - 1]!)) i--;
    best.splice(i, 0, scored);
    if (best.length > TOOL_WORDS) best.pop();
  }
  // Shown in the form its tools use most.
  const shown = (stem: string) => [...forms.get(stem)!].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  return best.map(([w]) => shown(w));
}

/** One line per server, in the order given. */
export function directoryLines(servers: readonly DirectoryServer[]): DirectoryLine[] {
  let df: Map<string, number> | undefined;
  return servers.map((s) => {
    const line = (purpose: string, from: DirectoryLine['from']): DirectoryLine => ({ server: s.name, purpose, tools: s.tools.length, from });
    if (s.description?.trim()) return line(firstSentence(s.description), 'config');
    const said = s.serverDescription?.trim() && withoutPreamble(firstSentence(s.serverDescription));
    if (said && said.split(' ').length >= 3) return line(capitalised(said), 'server');
    const told =
      s.instructions &&
      purposeOfInstructions(
        s.instructions,
        s.tools.map((t) => t.name),
      );
    if (told) return line(capitalised(told), 'instructions');
    if (s.title && informativeTitle(s.title, s.name)) return line(firstSentence(s.title), 'title');
    // A server of a few tools is said best by their names.
    if (s.tools.length <= FEW_TOOLS) return line(s.tools.map((t) => t.name).join(', '), 'tools');
    df ??= serverFrequencies(servers);
    const list = distinctiveWords(s, df, servers.length);
    return line(list.length > 0 ? `Tools for ${list.join(', ')}` : 'Tools', 'tools');
  });
}

/** The directory as the model reads it: `- name (N tools): purpose`, one per line. */
export function directoryText(lines: readonly DirectoryLine[]): string {
  return lines.map((l) => `- ${l.server} (${l.tools} tool${l.tools === 1 ? '' : 's'}): ${l.purpose}`).join('\n');
}
