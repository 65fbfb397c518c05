// Collects a server's tool definitions by running it and asking tools/list (all pages), for the
// search benchmark's catalogs. Not run by the benchmark itself (it must stay offline): run by
// hand, once per server, from a folder where the server's npm package is installed.
//   node list-tools.mjs <out.json> <server-name> <meta.json> -- <command> [args...]
// meta.json carries the attribution (source repo, package, version, licence) copied into the file.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [out, server, metaPath, dashdash, command, ...args] = process.argv.slice(2);
if (dashdash !== '--' || !command) {
  console.error('usage: list-tools.mjs <out.json> <server> <meta.json> -- <command> [args...]');
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

await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-bench-collect', version: '0' } });
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
const { env: _env, ...source } = meta;
writeFileSync(out, JSON.stringify({ server, source: { ...source, collected: new Date().toISOString().slice(0, 10), method: 'tools/list of the running server' }, tools: tools.map(pick) }, null, 1) + '\n');
console.error(`${server}: ${tools.length} tools → ${out}`);
process.exit(0);

function pick(t) {
  const o = { name: t.name };
  if (t.title) o.title = t.title;
  if (t.description) o.description = t.description;
  o.inputSchema = t.inputSchema;
  if (t.annotations) o.annotations = t.annotations;
  return o;
}
