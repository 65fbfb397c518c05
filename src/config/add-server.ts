// Edits a config file's text to add (or update) one server entry, keeping the file's comments,
// blank lines and layout. The `yaml` package's Document API parses the file, finds the entry's
// place (source ranges) and renders the entry; that text is spliced into the file's own text, so
// every byte outside the entry stays as it was (printing the whole document back would respace
// flow maps and comments). Only where the file has no block list under `servers:` (none, empty,
// or a flow list) is the whole document printed back, comments kept. An entry written in flow style
// (`- { name: x, ... }`, or in `servers: [ ... ]`) is updated in place as one flow map on one line.
//
// `add` appends to `servers:` (creating it when the file has none). `--update` rewrites the pinned
// parts of an existing entry (command, args, url, transport) and adds variables the new version
// needs, but keeps the values already set for env and headers, and every key the user added.

import { Document, isCollection, isMap, isScalar, isSeq, parseDocument, type Pair, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import { MAX_NAME_LENGTH } from './schema-values.js';
import { validName } from './server-entries.js';

export class AddServerError extends Error {}

export interface NewEntry {
  entry: Record<string, unknown> & { name: string };
  /** Comments: for keys of env and headers, and for `${VAR}`s anywhere in the entry (the registry's descriptions). */
  notes: { env: Record<string, string>; headers: Record<string, string>; vars: Record<string, string> };
  /** The comment above the entry (where it came from). */
  comment: string;
}

/** Keys a registry entry owns and `--update` rewrites; other keys are the user's. */
const PINNED_KEYS = ['command', 'args', 'url', 'transport'];

function parse(text: string): Document {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new AddServerError(`the config is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new AddServerError('the config is not a YAML mapping (key: value) at its top level');
  return doc;
}

/** A name chosen for the entry (`add --name`), held to the rule every server name in the config keeps. */
export function checkServerName(name: string): void {
  if (!validName(name)) throw new AddServerError(`--name "${name}" is not a server name: use 1 to ${MAX_NAME_LENGTH} lowercase letters, digits and -`);
}

/** `registry.url` from the config's text, read without loading (the file may hold unset variables). */
export function registryUrlIn(text: string): string | undefined {
  const url = parse(text).getIn(['registry', 'url']);
  return typeof url === 'string' && url.trim() !== '' ? url.trim() : undefined;
}

/** Whether a server of this name is in the file (servers: or mcpServers:). */
export function hasServer(text: string, name: string): boolean {
  const doc = parse(text);
  return findEntry(doc, name) !== undefined || doc.hasIn(['mcpServers', name]);
}

/** The file's text with the entry appended (update: false) or the existing entry moved on (update: true). */
export function addServer(text: string, add: NewEntry, options: { update: boolean }): string {
  const doc = parse(text);
  const name = add.entry.name;
  if (doc.hasIn(['mcpServers', name])) throw new AddServerError(`"${name}" is under mcpServers: change it there by hand, or remove it and add it again`);
  const existing = findEntry(doc, name);
  if (options.update) {
    if (!existing) throw new AddServerError(`no server named "${name}" in the config to update (add it without --update)`);
    updateEntry(doc, existing, add);
    return existing.flow || servers(doc)?.flow ? spliceUpdatedFlow(text, existing, add.comment) : spliceUpdated(text, existing, add.comment);
  }
  if (existing) throw new AddServerError(`a server named "${name}" is already in the config (switchboard add --update moves it to the new version)`);
  const seq = servers(doc);
  if (seq && !seq.flow && seq.items.length > 0) return spliceAppended(text, seq, add);
  appendEntry(doc, add);
  return doc.toString({ lineWidth: 0 });
}

/** One list item rendered alone at column 0 (`- name: ...`), comments included. */
function renderItem(item: YAMLMap): string {
  const single = new Document([]);
  (single.contents as YAMLSeq).items.push(item);
  return single.toString({ lineWidth: 0 });
}

const indent = (text: string, by: string) =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : by + line))
    .join('\n');

/** Where the line holding `offset` starts, and the text before the item on it (its indentation). */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the line on which `offset` lies (its newline included). */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', Math.max(offset - 1, 0));
  return nl === -1 ? text.length : nl + 1;
}

/** The column of the `-` that opens the list item whose content starts at `offset`. */
function dashColumn(text: string, offset: number): number {
  const start = lineStart(text, offset);
  const dash = text.lastIndexOf('-', offset - 1);
  return dash >= start ? dash - start : offset - start;
}

/**
 * Where a rewritten item's "from the MCP Registry" line goes: over the one right above the line
 * starting at `line` when that is ours (it is replaced), else at `line` (it is added).
 */
function commentFrom(text: string, line: number): number {
  const above = lineStart(text, line - 1);
  return line > 0 && /^\s*# from the MCP Registry:/.test(text.slice(above, line)) ? above : line;
}

/** The new entry as a node: the comment above it, the registry's descriptions beside its keys. */
function decorated(node: YAMLMap, add: NewEntry): YAMLMap {
  node.commentBefore = ` ${add.comment}`;
  annotate(node, add.notes);
  return node;
}

function spliceAppended(text: string, seq: YAMLSeq, add: NewEntry): string {
  const last = seq.items[seq.items.length - 1] as YAMLMap | undefined;
  const first = seq.items[0] as YAMLMap;
  if (!first?.range || !last?.range) return text;
  const node = decorated(new Document().createNode(add.entry) as YAMLMap, add);
  const rendered = indent(renderItem(node), ' '.repeat(dashColumn(text, first.range[0])));
  const at = lineEnd(text, last.range[2]);
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') ? '' : '\n'}\n${rendered}${text.slice(at)}`;
}

/** The updated item replaces its old text; the "from the MCP Registry" line above it is rewritten. */
function spliceUpdated(text: string, item: YAMLMap, comment: string): string {
  if (!item.range) return text;
  const start = lineStart(text, item.range[0]);
  const end = lineEnd(text, item.range[2]);
  const column = dashColumn(text, item.range[0]);
  item.commentBefore = undefined;
  item.spaceBefore = false;
  const rendered = indent(renderItem(item), ' '.repeat(column));
  // The comment line right above, when it is ours, is replaced; otherwise ours is added above the item.
  return `${text.slice(0, commentFrom(text, start))}${' '.repeat(column)}# ${comment}\n${rendered}${text.slice(end)}`;
}

/**
 * A flow entry (`- { name: x, ... }`, or an item of `servers: [ ... ]`) is replaced by the same map
 * in flow style on one line, from its first byte to its last: the text around it (the list's
 * brackets and commas, other entries on the same line, a comment after it) stays as it was. A
 * comment inside a flow map would break it over lines, so there are none in it (the entry's own
 * comments, and the registry's descriptions, are not kept there); the "from the MCP Registry" line
 * goes above it when it starts its line, and is left out when it shares one with other text.
 */
function spliceUpdatedFlow(text: string, item: YAMLMap, comment: string): string {
  if (!item.range) return text;
  const [start, end] = item.range;
  const out = `${text.slice(0, start)}${oneLineFlow(item)}${text.slice(end)}`;
  const line = lineStart(text, start);
  const before = text.slice(line, start);
  if (!/^\s*(-\s+)?$/.test(before)) return out;
  return `${out.slice(0, commentFrom(text, line))}${/^\s*/.exec(before)![0]}# ${comment}\n${out.slice(line)}`;
}

function oneLineFlow(item: YAMLMap): string {
  const copy = item.clone() as YAMLMap;
  visit(copy, {
    Node(_, node) {
      if (isCollection(node)) node.flow = true;
      node.comment = undefined;
      node.commentBefore = undefined;
      node.spaceBefore = false;
    },
  });
  return new Document(copy).toString({ lineWidth: 0 }).trimEnd();
}

function servers(doc: Document): YAMLSeq | undefined {
  const seq = doc.get('servers', true);
  return isSeq(seq) ? seq : undefined;
}

function findEntry(doc: Document, name: string): YAMLMap | undefined {
  return servers(doc)?.items.find((item): item is YAMLMap => isMap(item) && item.get('name') === name);
}

function appendEntry(doc: Document, add: NewEntry): void {
  const seq = servers(doc);
  if (seq) {
    // A flow list (`servers: []`) would print the new entry on one line: make it a block list.
    seq.flow = false;
    const node = decorated(doc.createNode(add.entry) as YAMLMap, add);
    if (seq.items.length > 0) node.spaceBefore = true;
    seq.items.push(node);
  } else {
    if (doc.has('servers')) doc.delete('servers'); // `servers:` with no value (null)
    if (doc.contents === null) doc.contents = doc.createNode({}) as unknown as Document['contents'];
    doc.set('servers', doc.createNode([add.entry]));
    decorated(servers(doc)!.items[0] as YAMLMap, add);
  }
}

function updateEntry(doc: Document, existing: YAMLMap, add: NewEntry): void {
  for (const key of PINNED_KEYS) {
    if (add.entry[key] === undefined) {
      existing.delete(key);
      continue;
    }
    const node = doc.createNode(add.entry[key]);
    // `args: [a, b]` the user wrote in flow style stays in flow style.
    const old: unknown = existing.get(key, true);
    if (isCollection(old) && isCollection(node) && old.flow) node.flow = true;
    existing.set(key, node);
  }
  // An mcpb bundle's folder moves with its digest; another kind keeps the cwd the user chose.
  if (add.entry.cwd !== undefined) existing.set('cwd', add.entry.cwd);
  for (const key of ['env', 'headers'] as const) {
    const wanted = add.entry[key] as Record<string, string> | undefined;
    if (!wanted) continue;
    const found: unknown = existing.get(key, true);
    let values: YAMLMap;
    if (isMap(found)) values = found;
    else {
      values = doc.createNode({}) as YAMLMap;
      existing.set(key, values);
    }
    for (const [k, v] of Object.entries(wanted)) {
      if (values.has(k)) continue; // a value the user set stays
      values.set(doc.createNode(k), v);
      const note = [add.notes[key][k], varsNote(v, add.notes.vars)].filter(Boolean).join('; ');
      const pair = values.items.find((p) => isScalar(p.key) && p.key.value === k);
      // Not inside `env: { ... }`: a comment there would break the user's one-line map over lines.
      if (note && pair && isScalar(pair.key) && !values.flow) pair.key.commentBefore = ` ${note}`;
    }
  }
}

/** The registry's descriptions as comments: above env and headers keys, beside args and url. */
function annotate(node: YAMLMap, notes: NewEntry['notes']): void {
  for (const key of ['env', 'headers'] as const) {
    const map = node.get(key, true);
    if (!isMap(map)) continue;
    for (const pair of map.items as Pair[]) {
      if (!isScalar(pair.key)) continue;
      const value = isScalar(pair.value) ? String(pair.value.value) : '';
      const note = [notes[key][String(pair.key.value)], varsNote(value, notes.vars)].filter(Boolean).join('; ');
      if (note) pair.key.commentBefore = ` ${note}`;
    }
  }
  const args = node.get('args', true);
  for (const item of isSeq(args) ? args.items : []) {
    const note = isScalar(item) ? varsNote(String(item.value), notes.vars) : '';
    if (note && isScalar(item)) item.comment = ` ${note}`;
  }
  const url = node.get('url', true);
  const urlNote = isScalar(url) ? varsNote(String(url.value), notes.vars) : '';
  if (urlNote && isScalar(url)) url.comment = ` ${urlNote}`;
}

/** "VAR: what it is" for each described `${VAR}` (or `${VAR:-default}`) in a value. */
function varsNote(value: string, vars: Record<string, string>): string {
  const names = [...value.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)].map((m) => m[1]!);
  return [...new Set(names)]
    .filter((n) => vars[n])
    .map((n) => `${n}: ${vars[n]}`)
    .join('; ');
}
