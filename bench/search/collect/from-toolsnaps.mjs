// Builds the github-official catalog from github/github-mcp-server's tool snapshots
// (pkg/github/__toolsnaps__/*.snap: each the JSON a tools/list returns for one tool), read from a
// local mirror of that repository. By hand only:  node from-toolsnaps.mjs <git-dir> <out.json>
// Feature-flag (`_ff_`) and typed-schema (`_typed`) variants are left out: same tools, other shapes.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [gitDir, out] = process.argv.slice(2);
const git = (...a) => execFileSync('git', ['--git-dir', gitDir, ...a], { encoding: 'utf8', maxBuffer: 64 << 20 });
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
const source = { repo: 'github/github-mcp-server', commit, date, licence: 'MIT', path: 'pkg/github/__toolsnaps__/', method: 'tool snapshot files of the repository' };
writeFileSync(out, JSON.stringify({ server: 'github-official', source, tools }, null, 1) + '\n');
console.error(`github-official: ${tools.length} tools → ${out}`);
