// Reads the README's "Connect your client" section into what each snippet would make its client
// do: start a command (stdio) or connect to a URL with headers (HTTP). The install test runs
// them; parsing the README itself means a snippet cannot change without being run.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/index.js';

export interface StdioSnippet {
  client: string;
  kind: 'stdio';
  command: string;
  args: string[];
  /** What the client adds to the environment (Claude Desktop's `env`): nothing else of ours is passed. */
  env: Record<string, string>;
}

export interface HttpSnippet {
  client: string;
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
  inspector: { kind: 'stdio' | 'http'; line: string }[];
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
      if (!(name in vars)) throw new Error(`README snippet uses $${name}, which the test does not set: ${line}`);
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
  if (quote !== undefined) throw new Error(`unclosed quote in README snippet: ${line}`);
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

function fromShell(client: string, line: string, token: string, section: ConnectSection): void {
  if (/^export\s/.test(line)) return;
  const words = shellWords(line, { SWITCHBOARD_TOKEN: token });
  if (words.length === 0) return;
  const afterDashes = words.includes('--') ? words.slice(words.indexOf('--') + 1) : undefined;
  if (words.slice(0, 3).join(' ') === 'claude mcp add') {
    if (afterDashes) return void section.snippets.push({ client, kind: 'stdio', command: afterDashes[0]!, args: afterDashes.slice(1), env: {} });
    const { named, positional } = options(words.slice(3));
    if (named.get('--transport')?.[0] !== 'http') throw new Error(`claude mcp add without -- must be --transport http: ${line}`);
    return void section.snippets.push({ client, kind: 'http', url: positional[1]!, headers: headerMap(named.get('--header') ?? []) });
  }
  if (words[0] === 'npx' && INSPECTOR.test(words[1] ?? '')) {
    section.inspector.push({ kind: afterDashes ? 'stdio' : 'http', line });
    if (afterDashes) return void section.snippets.push({ client, kind: 'stdio', command: afterDashes[0]!, args: afterDashes.slice(1), env: {} });
    const { named } = options(words.slice(2));
    if (named.get('--transport')?.[0] !== 'http') throw new Error(`the Inspector's HTTP line must say --transport http: ${line}`);
    return void section.snippets.push({ client, kind: 'http', url: named.get('--cli')![0]!, headers: headerMap(named.get('--header') ?? []) });
  }
  if (words[0] === 'switchboard' && words[1] === 'serve') return void section.serve.push(line);
  if (words[0] === 'switchboard' && words[1] === 'status') return void section.status.push(line);
  throw new Error(`a shell line in "Connect your client" the test does not know how to run: ${line}`);
}

function fromJson(client: string, text: string, token: string, section: ConnectSection): void {
  const file = JSON.parse(text) as { mcpServers?: Record<string, any>; servers?: Record<string, any>; inputs?: { id: string }[] };
  const inputs = new Set((file.inputs ?? []).map((i) => i.id));
  // What the clients substitute in a header: Cursor's ${env:VAR}, VS Code's ${input:id} (declared).
  const expand = (value: string) =>
    value
      .replace(/\$\{env:SWITCHBOARD_TOKEN\}/g, token)
      .replace(/\$\{input:([\w-]+)\}/g, (_, id: string) => {
        if (!inputs.has(id)) throw new Error(`\${input:${id}} with no input of that id`);
        return token;
      });
  for (const entry of Object.values(file.mcpServers ?? file.servers ?? {})) {
    if (entry.command !== undefined) section.snippets.push({ client, kind: 'stdio', command: entry.command, args: entry.args ?? [], env: entry.env ?? {} });
    else section.snippets.push({ client, kind: 'http', url: entry.url, headers: Object.fromEntries(Object.entries<string>(entry.headers ?? {}).map(([k, v]) => [k, expand(v)])) });
  }
}

/** Every snippet of the README's "Connect your client" section, with `token` where they put the token. */
export function connectSection(token: string, readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8')): ConnectSection {
  const start = readme.indexOf('\n## Connect your client\n');
  if (start < 0) throw new Error('README has no "## Connect your client" section');
  const end = readme.indexOf('\n## ', start + 1);
  const lines = readme.slice(start, end < 0 ? undefined : end).split('\n');
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
    if (fence[1] === 'json') fromJson(client, text, token, section);
    else if (fence[1] === 'sh') for (const line of body) fromShell(client, line, token, section);
    else if (fence[1] === 'yaml' && /^clients:/m.test(text)) section.clientsYaml = text;
  }
  return section;
}
