// Prints the Markdown tables of bench/search/catalogs-added/README.md from the saved catalogs:
//   node summary.mjs added   the added servers: package@version, licence, tools, what each says of itself
//   node summary.mjs all     every catalog: tools, first 100 characters of description / title / instructions
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const load = (dir) => readdirSync(join(here, '..', dir)).filter((f) => f.endsWith('.json')).sort()
  .map((f) => ({ dir, ...JSON.parse(readFileSync(join(here, '..', dir, f), 'utf8')) }));
const cell = (s, n = Infinity) => {
  if (s === undefined || s === null || s === '') return '';
  const flat = String(s).replace(/\s+/g, ' ').trim();
  const cut = flat.length > n ? flat.slice(0, n) + '…' : flat;
  return cut.replace(/\|/g, '\\|');
};
const yes = (v) => (v ? 'yes' : '');
const which = process.argv[2] ?? 'all';
if (which === 'added') {
  console.log('| server | package@version | licence | tools | title | description | instructions |');
  console.log('| --- | --- | --- | ---: | --- | --- | --- |');
  for (const c of load('catalogs-added')) {
    const s = c.serverInfo ?? {};
    console.log(`| ${c.server} | ${cell(c.source.package)}@${c.source.version} | ${cell(c.source.licence)} | ${c.tools.length} | ${yes(s.title)} | ${yes(s.description)} | ${yes(c.instructions)} |`);
  }
} else {
  const all = [...load('catalogs'), ...load('catalogs-added')];
  console.log('| server | folder | tools | serverInfo.description | serverInfo.title | instructions |');
  console.log('| --- | --- | ---: | --- | --- | --- |');
  for (const c of all) {
    const s = c.serverInfo ?? {};
    console.log(`| ${c.server} | ${c.dir} | ${c.tools.length} | ${cell(s.description, 100)} | ${cell(s.title, 100)} | ${cell(c.instructions, 100)} |`);
  }
  const says = all.filter((c) => c.serverInfo?.description || c.serverInfo?.title || c.instructions);
  const n = (f) => all.filter(f).length;
  console.log(`\n${all.length} servers, ${all.reduce((a, c) => a + c.tools.length, 0)} tools. ${says.length} say a description, title or instructions: ` +
    `${n((c) => c.serverInfo?.description)} a description, ${n((c) => c.serverInfo?.title)} a title, ${n((c) => c.instructions)} instructions.`);
}
