// Collects a server's tool definitions by running it and asking tools/list (all pages), for the
// search benchmark's catalogs, with what the server says about itself in its initialize result
// (serverInfo: name, title, version, description, websiteUrl; instructions). Not run by the
// benchmark itself (it must stay offline): run by hand, once per server, from a folder where the
// server's npm package is installed.
//   node list-tools.mjs [--meta-only] <out.json> <server-name> <meta.json> -- <command> [args...]
// meta.json carries the attribution (source repo, package, version, licence) copied into the file.
// --meta-only: <out.json> exists already; its tools and source.collected are kept as they are, only
// serverInfo and instructions are added (source.metaCollected: today). If the tools listed now
// differ from the saved ones, the saved ones are still kept and source.metaNote says so.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const argv = process.argv.slice(2);
const metaOnly = argv[0] === '--meta-only';
if (metaOnly) argv.shift();
const [out, server, metaPath, dashdash, command, ...args] = argv;
if (dashdash !== '--' || !command) {
  console.error('usage: list-tools.mjs [--meta-only] <out.json> <server> <meta.json> -- <command> [args...]');
  process.exit(2);
}
const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...(meta.env ?? {}) } });
let stderr = '';
child.stderr.on('data', (d) => { stderr += d; });
const pending = new Map();
let buf = '';
child.stdout.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i).trim();
    buf = buf.slice(i + 1);
    if (!line.startsWith('{')) continue;
    const msg = JSON.parse(line);
    if (msg.id !== undefined && pending.has(msg.id)) { pending.get(msg.id)(msg); pending.delete(msg.id); }
  }
});
let nextId = 1;
const request = (method, params) => new Promise((resolve, reject) => {
  const id = nextId++;
  pending.set(id, (msg) => (msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result)));
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});
const timer = setTimeout(() => { console.error(`timeout; stderr:\n${stderr.slice(-2000)}`); child.kill('SIGKILL'); process.exit(1); }, 60_000);
child.on('exit', (code) => { if (pending.size > 0) { console.error(`exited ${code}; stderr:\n${stderr.slice(-2000)}`); process.exit(1); } });

const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-bench-collect', version: '0' } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const tools = [];
let cursor;
do {
  const page = await request('tools/list', cursor ? { cursor } : {});
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor);
clearTimeout(timer);
child.kill('SIGTERM');
const today = new Date().toISOString().slice(0, 10);
const about = aboutSelf(init);
const listed = tools.map(pick);
let doc;
if (metaOnly) {
  const old = JSON.parse(readFileSync(out, 'utf8'));
  const same = isDeepStrictEqual(old.tools, listed);
  const { serverInfo: _s, instructions: _i, tools: oldTools, ...head } = old;
  const source = { ...head.source, metaCollected: today };
  delete source.metaNote;
  if (!same) source.metaNote = `tools kept from ${old.source.collected ?? 'the first collection'}: the server run for serverInfo listed ${listed.length} tools that differ from the ${oldTools.length} saved (${diffNote(oldTools, listed)})`;
  doc = { ...head, source, ...about, tools: oldTools };
  console.error(`${server}: serverInfo/instructions added${same ? '' : `; TOOLS DIFFER (${diffNote(oldTools, listed)}), old kept`} → ${out}`);
} else {
  const { env: _env, ...source } = meta;
  doc = { server, source: { ...source, collected: today, method: 'tools/list of the running server' }, ...about, tools: listed };
  console.error(`${server}: ${tools.length} tools → ${out}`);
}
writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
process.exit(0);

function aboutSelf(result) {
  const o = {};
  const s = result?.serverInfo;
  if (s) {
    o.serverInfo = {};
    for (const k of ['name', 'title', 'version', 'description', 'websiteUrl']) if (s[k] !== undefined && s[k] !== '') o.serverInfo[k] = s[k];
  }
  if (typeof result?.instructions === 'string' && result.instructions.trim()) o.instructions = result.instructions;
  return o;
}

function diffNote(a, b) {
  const an = new Set(a.map((t) => t.name));
  const bn = new Set(b.map((t) => t.name));
  const gone = [...an].filter((n) => !bn.has(n));
  const added = [...bn].filter((n) => !an.has(n));
  const fields = new Map(); // field -> names of the tools whose field differs
  for (const t of b) {
    const o = a.find((x) => x.name === t.name);
    if (!o) continue;
    for (const k of new Set([...Object.keys(o), ...Object.keys(t)])) {
      if (!isDeepStrictEqual(o[k], t[k])) fields.set(k, [...(fields.get(k) ?? []), t.name]);
    }
  }
  const changed = [...fields].map(([k, names]) => `${k} differs in ${names.length === b.length ? 'every tool' : names.join(', ')}`);
  return [gone.length && `not listed now: ${gone.join(', ')}`, added.length && `new: ${added.join(', ')}`, ...changed].filter(Boolean).join('; ') || 'order differs';
}

function pick(t) {
  const o = { name: t.name };
  if (t.title) o.title = t.title;
  if (t.description) o.description = t.description;
  o.inputSchema = t.inputSchema;
  if (t.annotations) o.annotations = t.annotations;
  return o;
}
