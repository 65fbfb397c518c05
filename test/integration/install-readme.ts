// Reads the client snippets of the README's "Connect your client" section and of docs/clients.md
// into what each would make its client do: start a command (stdio) or connect to a URL with
// headers (HTTP). The install test runs them; parsing the pages themselves means a snippet cannot
// change without being run.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/index.js';

export interface StdioSnippet {
  client: string;
  /** The pages that show it (README.md, docs/clients.md): a snippet shown on both is run once. */
  where: string[];
  kind: 'stdio';
  command: string;
  args: string[];
  /** What the client adds to the environment (Claude Desktop's `env`): nothing else of ours is passed. */
  env: Record<string, string>;
}

export interface HttpSnippet {
  client: string;
  where: string[];
  kind: 'http';
  url: string;
  headers: Record<string, string>;
}

export interface ConnectSection {
  snippets: (StdioSnippet | HttpSnippet)[];
  /** The `clients:` YAML the HTTP part tells you to add to your config. */
  clientsYaml: string;
  /** The shell lines that start the HTTP gateway and ask its status (`switchboard …`). */
  serve: string[];
  status: string[];
  /** The MCP Inspector's lines as written: install.test.ts runs them with the Inspector itself. */
  inspector: { kind: 'stdio' | 'http'; line: string; where: string[] }[];
}

/** `@modelcontextprotocol/inspector`, with or without `@version`. */
const INSPECTOR = /^@modelcontextprotocol\/inspector(@[\w.-]+)?$/;

/** Splits a shell line into words as sh would: quotes, `$VAR` / `${VAR}` from `vars`, `#` comments. */
export function shellWords(line: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || (c === "'" && quote === undefined)) {
      quote = quote === '"' ? undefined : (c as '"' | "'");
      inWord = true;
      continue;
    }
    const ref = c === '$' ? /^\$(?:(\w+)|\{(\w+)\})/.exec(line.slice(i)) : null;
    if (ref) {
      const name = (ref[1] ?? ref[2])!;
      if (!(name in vars)) throw new Error(`a snippet uses $${name}, which the test does not set: ${line}`);
      word += vars[name];
      i += ref[0].length - 1;
      inWord = true;
      continue;
    }
    if (quote === undefined && /\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    if (quote === undefined && c === '#' && !inWord) break;
    word += c;
    inWord = true;
  }
  if (quote !== undefined) throw new Error(`unclosed quote in a snippet: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/** `--name value` options (repeatable) and positionals of a word list. */
function options(words: string[]): { named: Map<string, string[]>; positional: string[] } {
  const named = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--')) named.set(w, [...(named.get(w) ?? []), words[++i] ?? '']);
    else positional.push(w);
  }
  return { named, positional };
}

function headerMap(lines: string[]): Record<string, string> {
  return Object.fromEntries(lines.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]));
}

function fromShell(client: string, line: string, token: string, section: ConnectSection, where: string[]): void {
  if (/^export\s/.test(line)) return;
  const words = shellWords(line, { SWITCHBOARD_TOKEN: token });
  if (words.length === 0) return;
  const afterDashes = words.includes('--') ? words.slice(words.indexOf('--') + 1) : undefined;
  if (words.slice(0, 3).join(' ') === 'claude mcp add') {
    if (afterDashes) return void section.snippets.push({ client, where, kind: 'stdio', command: afterDashes[0]!, args: afterDashes.slice(1), env: {} });
    const { named, positional } = options(words.slice(3));
    if (named.get('--transport')?.[0] !== 'http') throw new Error(`claude mcp add without -- must be --transport http: ${line}`);
    return void section.snippets.push({ client, where, kind: 'http', url: positional[1]!, headers: headerMap(named.get('--header') ?? []) });
  }
  if (words[0] === 'npx' && INSPECTOR.test(words[1] ?? '')) {
    section.inspector.push({ kind: afterDashes ? 'stdio' : 'http', line, where });
    if (afterDashes) return void section.snippets.push({ client, where, kind: 'stdio', command: afterDashes[0]!, args: afterDashes.slice(1), env: {} });
    const { named } = options(words.slice(2));
    if (named.get('--transport')?.[0] !== 'http') throw new Error(`the Inspector's HTTP line must say --transport http: ${line}`);
    return void section.snippets.push({ client, where, kind: 'http', url: named.get('--cli')![0]!, headers: headerMap(named.get('--header') ?? []) });
  }
  if (words[0] === 'switchboard' && words[1] === 'serve') return void section.serve.push(line);
  if (words[0] === 'switchboard' && words[1] === 'status') return void section.status.push(line);
  throw new Error(`a shell line in ${where.join(', ')} the test does not know how to run: ${line}`);
}

function fromJson(client: string, text: string, token: string, section: ConnectSection, where: string[]): void {
  const file = JSON.parse(text) as { mcpServers?: Record<string, any>; servers?: Record<string, any>; inputs?: { id: string }[] };
  const inputs = new Set((file.inputs ?? []).map((i) => i.id));
  // What the clients substitute in a header: Cursor's ${env:VAR}, VS Code's ${input:id} (declared).
  const expand = (value: string) =>
    value.replace(/\$\{env:SWITCHBOARD_TOKEN\}/g, token).replace(/\$\{input:([\w-]+)\}/g, (_, id: string) => {
      if (!inputs.has(id)) throw new Error(`\${input:${id}} with no input of that id`);
      return token;
    });
  for (const entry of Object.values(file.mcpServers ?? file.servers ?? {})) {
    if (entry.command !== undefined) section.snippets.push({ client, where, kind: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {} });
    else section.snippets.push({ client, where, kind: 'http', url: entry.url, headers: Object.fromEntries(Object.entries<string>(entry.headers ?? {}).map(([k, v]) => [k, expand(v)])) });
  }
}

/**
 * Every snippet of `markdown` (a page, or one section of it), with `token` where they put the
 * token. A `**Client**` at the start of a line names the client of the blocks after it.
 */
export function snippetsOf(page: string, markdown: string, token: string): ConnectSection {
  const lines = markdown.split('\n');
  const section: ConnectSection = { snippets: [], clientsYaml: '', serve: [], status: [], inspector: [] };
  let client = '';
  for (let i = 0; i < lines.length; i++) {
    const label = /^\*\*([^*]+)\*\*/.exec(lines[i]!);
    if (label) client = label[1]!;
    const fence = /^```(\w*)$/.exec(lines[i]!);
    if (!fence) continue;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i]!);
    const text = body.join('\n');
    if (fence[1] === 'json') fromJson(client, text, token, section, [page]);
    else if (fence[1] === 'sh') for (const line of body) fromShell(client, line, token, section, [page]);
    else if (fence[1] === 'yaml' && /^clients:/m.test(text)) section.clientsYaml = text;
  }
  return section;
}

const read = (page: string) => readFileSync(path.join(repoRoot, page), 'utf8');

/** The README's "Connect your client" section: the most common ways. */
export function readmeSnippets(token: string, readme = read('README.md')): ConnectSection {
  const start = readme.indexOf('\n## Connect your client\n');
  if (start < 0) throw new Error('README has no "## Connect your client" section');
  const end = readme.indexOf('\n## ', start + 1);
  return snippetsOf('README.md', readme.slice(start, end < 0 ? undefined : end), token);
}

/** docs/clients.md, the whole page: every client over both faces. */
export function clientsPageSnippets(token: string, page = read('docs/clients.md')): ConnectSection {
  return snippetsOf('docs/clients.md', page, token);
}

/** What a snippet makes its client do, whatever page shows it and under which label. */
export function sameSnippet(a: StdioSnippet | HttpSnippet, b: StdioSnippet | HttpSnippet): boolean {
  const { where: _a, ...restA } = a;
  const { where: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/** Both pages' snippets and lines, each once, with every page that shows it. */
export function merged(...sections: ConnectSection[]): ConnectSection {
  const out: ConnectSection = { snippets: [], clientsYaml: '', serve: [], status: [], inspector: [] };
  for (const section of sections) {
    for (const s of section.snippets) {
      const seen = out.snippets.find((t) => sameSnippet(s, t));
      if (seen) seen.where = [...new Set([...seen.where, ...s.where])];
      else out.snippets.push({ ...s, where: [...s.where] });
    }
    for (const l of section.inspector) {
      const seen = out.inspector.find((m) => m.line === l.line);
      if (seen) seen.where = [...new Set([...seen.where, ...l.where])];
      else out.inspector.push({ ...l, where: [...l.where] });
    }
    out.clientsYaml ||= section.clientsYaml;
    for (const line of section.serve) if (!out.serve.includes(line)) out.serve.push(line);
    for (const line of section.status) if (!out.status.includes(line)) out.status.push(line);
  }
  return out;
}
