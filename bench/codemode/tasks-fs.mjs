// The tasks over server-filesystem. Each has: `goal` (what the user asks), `plain(turn, ws)` (the
// calls a model makes one turn at a time, reading only the result texts, as parallel as a careful
// model would go), `probe` (where the script must parse a text format the declarations do not
// give, the first run a model makes to look at it), `script` (the run_code body), `find` (when
// run_code's description has no declarations: the search_tools queries, [server, query, tool]),
// `expected(ws)` (the answer from the files) and `verify(ws)` (side effects, for tasks that write).

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

/** The model reading a listing: `[FILE] name   12.34 KB` lines. */
function parseListing(text) {
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };
  return text.split('\n').flatMap((line) => {
    const m = /^\[(FILE|DIR)\]\s+(\S+)(?:\s+([\d.]+) (B|KB|MB|GB))?/.exec(line);
    return m ? [{ type: m[1], name: m[2], bytes: m[3] ? Number(m[3]) * unit[m[4]] : 0 }] : [];
  });
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

const countMarkers = (text) => text.split('\n').filter((l) => /\b(TODO|FIXME)\b/.test(l)).length;

function salesSummary(csv) {
  const [header, ...rows] = csv.trim().split('\n');
  const col = Object.fromEntries(header.split(',').map((h, i) => [h, i]));
  const byProduct = {};
  let revenue = 0;
  for (const row of rows) {
    const f = row.split(',');
    const p = (byProduct[f[col.product]] ??= { units: 0, revenue: 0 });
    p.units += Number(f[col.units]);
    p.revenue = Math.round((p.revenue + Number(f[col.units]) * Number(f[col.unit_price])) * 100) / 100;
    revenue = Math.round((revenue + Number(f[col.units]) * Number(f[col.unit_price])) * 100) / 100;
  }
  return { rows: rows.length, revenue, byProduct };
}

export const FS_TASKS = [
  {
    name: 'largest-docs',
    goal: 'Read the three largest files in docs/ and summarise their first lines.',
    find: [
      ['files', 'list directory with sizes', 'list_directory_with_sizes'],
      ['files', 'read text file', 'read_text_file'],
    ],
    async plain(turn, ws) {
      const [listing] = await turn([['files__list_directory_with_sizes', { path: `${ws}/docs`, sortBy: 'size' }]]);
      const top = parseListing(listing)
        .filter((e) => e.type === 'FILE')
        .slice(0, 3);
      const heads = await turn(top.map((e) => ['files__read_text_file', { path: `${ws}/docs/${e.name}`, head: 1 }]));
      return top.map((e, i) => ({ file: e.name, firstLine: heads[i].trim() }));
    },
    probe: async (tools) => {
      const r = await tools.files.list_directory_with_sizes({ path: '__WS__/docs', sortBy: 'size' });
      return r.content.split('\n').slice(0, 3);
    },
    script: async (tools) => {
      const dir = '__WS__/docs';
      const { content } = await tools.files.list_directory_with_sizes({ path: dir, sortBy: 'size' });
      const files = content
        .split('\n')
        .filter((l) => l.startsWith('[FILE]'))
        .map((l) => l.slice(6).trim().split(/\s+/)[0])
        .slice(0, 3);
      return Promise.all(files.map(async (file) => ({ file, firstLine: (await tools.files.read_text_file({ path: `${dir}/${file}`, head: 1 })).content.trim() })));
    },
    expected(ws) {
      const dir = join(ws, 'docs');
      const files = readdirSync(dir)
        .map((f) => ({ f, size: statSync(join(dir, f)).size }))
        .sort((a, b) => b.size - a.size)
        .slice(0, 3);
      return files.map(({ f }) => ({ file: f, firstLine: readFileSync(join(dir, f), 'utf8').split('\n')[0] }));
    },
  },
  {
    name: 'archive-logs',
    goal: 'Move every log in logs/ over 20 KB into logs/archive/; say which.',
    find: [
      ['files', 'list directory with sizes', 'list_directory_with_sizes'],
      ['files', 'create directory', 'create_directory'],
      ['files', 'move file', 'move_file'],
    ],
    async plain(turn, ws) {
      const [listing] = await turn([
        ['files__list_directory_with_sizes', { path: `${ws}/logs` }],
        ['files__create_directory', { path: `${ws}/logs/archive` }],
      ]);
      const big = parseListing(listing)
        .filter((e) => e.type === 'FILE' && e.bytes > 20 * 1024)
        .map((e) => e.name);
      await turn(big.map((name) => ['files__move_file', { source: `${ws}/logs/${name}`, destination: `${ws}/logs/archive/${name}` }]));
      return big.sort();
    },
    probe: async (tools) => {
      const r = await tools.files.list_directory_with_sizes({ path: '__WS__/logs' });
      return r.content.split('\n').slice(0, 3);
    },
    script: async (tools) => {
      const dir = '__WS__/logs';
      const { content } = await tools.files.list_directory_with_sizes({ path: dir });
      const unit = { B: 1, KB: 1024, MB: 1024 ** 2 };
      const big = content
        .split('\n')
        .map((l) => l.match(/^\[FILE\]\s+(\S+)\s+([\d.]+) (B|KB|MB)/))
        .filter((m) => m && m[2] * unit[m[3]] > 20 * 1024)
        .map((m) => m[1]);
      await tools.files.create_directory({ path: `${dir}/archive` });
      await Promise.all(big.map((name) => tools.files.move_file({ source: `${dir}/${name}`, destination: `${dir}/archive/${name}` })));
      console.log(`moved ${big.length} logs`);
      return big.sort();
    },
    expected: (ws) =>
      readdirSync(join(ws, 'logs'))
        .filter((f) => f.endsWith('.log') && statSync(join(ws, 'logs', f)).size > 20 * 1024)
        .sort(),
    verify(ws, answer) {
      const bad = answer.filter((f) => !existsSync(join(ws, 'logs/archive', f)) || existsSync(join(ws, 'logs', f)));
      return bad.length ? `not moved: ${bad.join(', ')}` : undefined;
    },
  },
  {
    name: 'grep-count',
    goal: 'Count the TODO and FIXME lines in each source file under src/.',
    find: [
      ['files', 'search files by name pattern', 'search_files'],
      ['files', 'read text file', 'read_text_file'],
    ],
    async plain(turn, ws) {
      const [found] = await turn([['files__search_files', { path: `${ws}/src`, pattern: '**/*.{ts,js}' }]]);
      const paths = found.split('\n').filter(Boolean);
      const [all] = await turn([['files__read_multiple_files', { paths }]]);
      const counts = {};
      for (const section of all.split('\n---\n')) {
        const nl = section.indexOf(':\n');
        const n = countMarkers(section.slice(nl + 2));
        if (n > 0)
          counts[
            section
              .slice(0, nl)
              .trim()
              .slice(ws.length + 5)
          ] = n;
      }
      return counts;
    },
    probe: async (tools) => {
      const r = await tools.files.search_files({ path: '__WS__/src', pattern: '**/*.{ts,js}' });
      return r.content.split('\n').slice(0, 3);
    },
    script: async (tools) => {
      const root = '__WS__/src';
      const found = await tools.files.search_files({ path: root, pattern: '**/*.{ts,js}' });
      const counts = {};
      await Promise.all(
        found.content
          .split('\n')
          .filter(Boolean)
          .map(async (path) => {
            const { content } = await tools.files.read_text_file({ path });
            const n = content.split('\n').filter((l) => /\b(TODO|FIXME)\b/.test(l)).length;
            if (n > 0) counts[path.slice(root.length + 1)] = n;
          }),
      );
      return counts;
    },
    expected(ws) {
      const root = join(ws, 'src');
      return Object.fromEntries(
        walk(root)
          .map((p) => [relative(root, p), countMarkers(readFileSync(p, 'utf8'))])
          .filter(([, n]) => n > 0),
      );
    },
  },
  {
    name: 'tree-summary',
    goal: 'Summarise the workspace: per top-level folder, how many files of each extension.',
    find: [['files', 'directory tree', 'directory_tree']],
    async plain(turn, ws) {
      const [tree] = await turn([['files__directory_tree', { path: ws }]]);
      const out = {};
      const count = (node, acc) => {
        if (node.type === 'file') acc[extname(node.name)] = (acc[extname(node.name)] ?? 0) + 1;
        else for (const c of node.children ?? []) count(c, acc);
      };
      for (const top of JSON.parse(tree).filter((n) => n.type === 'directory')) count(top, (out[top.name] = {}));
      return out;
    },
    script: async (tools) => {
      const tree = JSON.parse((await tools.files.directory_tree({ path: '__WS__' })).content);
      const summary = {};
      const visit = (node, acc) => {
        if (node.type === 'file') {
          const ext = node.name.includes('.') ? node.name.slice(node.name.lastIndexOf('.')) : '';
          acc[ext] = (acc[ext] ?? 0) + 1;
        } else for (const child of node.children ?? []) visit(child, acc);
      };
      for (const top of tree.filter((n) => n.type === 'directory')) visit(top, (summary[top.name] = {}));
      return summary;
    },
    expected(ws) {
      const out = {};
      for (const d of readdirSync(ws, { withFileTypes: true }).filter((e) => e.isDirectory())) {
        const acc = (out[d.name] = {});
        for (const f of walk(join(ws, d.name))) acc[extname(f)] = (acc[extname(f)] ?? 0) + 1;
      }
      return out;
    },
  },
  {
    name: 'csv-report',
    goal: 'For each CSV in data/, write out/<name>.json with units and revenue per product; give rows and revenue per file.',
    find: [
      ['files', 'list directory', 'list_directory'],
      ['files', 'create directory', 'create_directory'],
      ['files', 'read text file', 'read_text_file'],
      ['files', 'write file', 'write_file'],
    ],
    async plain(turn, ws) {
      const [listing] = await turn([
        ['files__list_directory', { path: `${ws}/data` }],
        ['files__create_directory', { path: `${ws}/out` }],
      ]);
      const names = parseListing(listing)
        .filter((e) => e.name.endsWith('.csv'))
        .map((e) => e.name);
      const texts = await turn(names.map((n) => ['files__read_text_file', { path: `${ws}/data/${n}` }]));
      const sums = texts.map(salesSummary);
      await turn(names.map((n, i) => ['files__write_file', { path: `${ws}/out/${n.replace('.csv', '.json')}`, content: JSON.stringify(sums[i].byProduct, null, 2) }]));
      return Object.fromEntries(names.map((n, i) => [n, { rows: sums[i].rows, revenue: sums[i].revenue }]));
    },
    probe: async (tools) => {
      const list = await tools.files.list_directory({ path: '__WS__/data' });
      const first = list.content.split('\n')[0].replace(/^\[FILE\] /, '');
      return { list: list.content.split('\n').slice(0, 2), head: (await tools.files.read_text_file({ path: `__WS__/data/${first}`, head: 2 })).content };
    },
    script: async (tools) => {
      const dir = '__WS__/data';
      const list = await tools.files.list_directory({ path: dir });
      const names = list.content
        .split('\n')
        .map((l) => l.replace(/^\[FILE\] /, ''))
        .filter((n) => n.endsWith('.csv'));
      await tools.files.create_directory({ path: '__WS__/out' });
      const report = {};
      for (const name of names) {
        const [header, ...rows] = (await tools.files.read_text_file({ path: `${dir}/${name}` })).content.trim().split('\n');
        const col = Object.fromEntries(header.split(',').map((h, i) => [h, i]));
        const byProduct = {};
        let revenue = 0;
        for (const row of rows) {
          const f = row.split(',');
          const sale = Number(f[col.units]) * Number(f[col.unit_price]);
          const p = (byProduct[f[col.product]] ??= { units: 0, revenue: 0 });
          p.units += Number(f[col.units]);
          p.revenue = Math.round((p.revenue + sale) * 100) / 100;
          revenue = Math.round((revenue + sale) * 100) / 100;
        }
        await tools.files.write_file({ path: `__WS__/out/${name.replace('.csv', '.json')}`, content: JSON.stringify(byProduct, null, 2) });
        report[name] = { rows: rows.length, revenue };
      }
      return report;
    },
    expected(ws) {
      const dir = join(ws, 'data');
      return Object.fromEntries(
        readdirSync(dir)
          .map((n) => [n, salesSummary(readFileSync(join(dir, n), 'utf8'))])
          .map(([n, s]) => [n, { rows: s.rows, revenue: s.revenue }]),
      );
    },
    verify(ws) {
      for (const n of readdirSync(join(ws, 'data'))) {
        const want = JSON.stringify(salesSummary(readFileSync(join(ws, 'data', n), 'utf8')).byProduct, null, 2);
        const path = join(ws, 'out', n.replace('.csv', '.json'));
        if (!existsSync(path) || readFileSync(path, 'utf8') !== want) return `out/${n.replace('.csv', '.json')} missing or wrong`;
      }
      return undefined;
    },
  },
  {
    name: 'config-audit',
    goal: 'Find every JSON config under config/ with "debug": true, turn it off, and list them.',
    find: [
      ['files', 'search files by name pattern', 'search_files'],
      ['files', 'read text file', 'read_text_file'],
      ['files', 'edit file', 'edit_file'],
    ],
    async plain(turn, ws) {
      const [found] = await turn([['files__search_files', { path: `${ws}/config`, pattern: '**/*.json' }]]);
      const paths = found.split('\n').filter(Boolean);
      const [all] = await turn([['files__read_multiple_files', { paths }]]);
      const on = all
        .split('\n---\n')
        .filter((s) => JSON.parse(s.slice(s.indexOf(':\n') + 2)).debug === true)
        .map((s) => s.slice(0, s.indexOf(':\n')).trim());
      await turn(on.map((path) => ['files__edit_file', { path, edits: [{ oldText: '"debug": true', newText: '"debug": false' }] }]));
      return on.map((p) => p.slice(ws.length + 8)).sort();
    },
    probe: async (tools) => {
      const r = await tools.files.search_files({ path: '__WS__/config', pattern: '**/*.json' });
      return r.content.split('\n').slice(0, 3);
    },
    script: async (tools) => {
      const root = '__WS__/config';
      const found = (await tools.files.search_files({ path: root, pattern: '**/*.json' })).content.split('\n').filter(Boolean);
      const fixed = [];
      for (const path of found) {
        const { content } = await tools.files.read_text_file({ path });
        if (JSON.parse(content).debug !== true) continue;
        await tools.files.edit_file({ path, edits: [{ oldText: '"debug": true', newText: '"debug": false' }] });
        fixed.push(path.slice(root.length + 1));
      }
      return fixed.sort();
    },
    expected: (ws) =>
      walk(join(ws, 'config'))
        .filter((p) => JSON.parse(readFileSync(p, 'utf8')).debug === true)
        .map((p) => relative(join(ws, 'config'), p))
        .sort(),
    verify(ws) {
      const left = walk(join(ws, 'config')).filter((p) => JSON.parse(readFileSync(p, 'utf8')).debug === true);
      return left.length ? `still debug: ${left.join(', ')}` : undefined;
    },
  },
];
