// Builds the github-official catalog from github/github-mcp-server's tool snapshots
// (pkg/github/__toolsnaps__/*.snap: each the JSON a tools/list returns for one tool), read from a
// local mirror of that repository. By hand only:  node from-toolsnaps.mjs <git-dir> <out.json>
// Feature-flag (`_ff_`) and typed-schema (`_typed`) variants are left out: same tools, other shapes.
// serverInfo (name, title) is read from the defaults in pkg/github/server.go at the same commit;
// the version is set at build time and the instructions are built at run time from the enabled
// toolsets, so neither is recorded.
//   node from-toolsnaps.mjs <git-dir> <out.json> --meta-only
// adds that serverInfo to a saved catalog, read at the commit the catalog names, tools untouched.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const [gitDir, out, flag] = process.argv.slice(2);
const git = (...a) => execFileSync('git', ['--git-dir', gitDir, ...a], { encoding: 'utf8', maxBuffer: 64 << 20 });
const metaNote = 'serverInfo read from the source at the same commit (pkg/github/server.go, the defaults of SERVER_NAME and SERVER_TITLE): the server was not run; its version is set at build time and its instructions are built at run time from the enabled toolsets (pkg/inventory/instructions.go), so neither is recorded';
const serverInfoAt = (commit) => {
  const src = git('show', `${commit}:pkg/github/server.go`);
  const name = src.match(/Translator\("SERVER_NAME", "([^"]+)"\)/)?.[1];
  const title = src.match(/Translator\("SERVER_TITLE", "([^"]+)"\)/)?.[1];
  if (!name) throw new Error('no SERVER_NAME default in pkg/github/server.go');
  return title ? { name, title } : { name };
};
const today = new Date().toISOString().slice(0, 10);
if (flag === '--meta-only') {
  const { serverInfo: _s, tools, ...head } = JSON.parse(readFileSync(out, 'utf8'));
  const source = { ...head.source, metaCollected: today, metaNote };
  writeFileSync(out, JSON.stringify({ ...head, source, serverInfo: serverInfoAt(head.source.commit), tools }, null, 1) + '\n');
  console.error(`github-official: serverInfo added → ${out}`);
  process.exit(0);
}
const [commit, date] = git('log', '-1', '--format=%H %cs').trim().split(' ');
const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'pkg/github/__toolsnaps__/').split('\n')
  .filter((f) => f.endsWith('.snap') && !f.includes('_typed') && !f.includes('_ff_'));
const tools = files.map((f) => JSON.parse(git('show', `HEAD:${f}`))).map((t) => {
  const o = { name: t.name };
  const title = t.title ?? t.annotations?.title;
  if (title) o.title = title;
  o.description = t.description;
  o.inputSchema = t.inputSchema;
  if (t.annotations) o.annotations = t.annotations;
  return o;
}).sort((a, b) => (a.name < b.name ? -1 : 1));
const source = { repo: 'github/github-mcp-server', commit, date, licence: 'MIT', path: 'pkg/github/__toolsnaps__/', method: 'tool snapshot files of the repository', metaCollected: today, metaNote };
writeFileSync(out, JSON.stringify({ server: 'github-official', source, serverInfo: serverInfoAt(commit), tools }, null, 1) + '\n');
console.error(`github-official: ${tools.length} tools → ${out}`);
