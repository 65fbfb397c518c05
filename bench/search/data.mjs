// The benchmark's data, read one way for every script: the collected catalogs (a tool's key is its
// exposed name, server__tool), and the query sets, all dev since round 17 (queries.tsv's even lines
// were its test half until then; its lines keep their split 'dev'); queries-dev2.tsv to queries-dev5.tsv. Lines: level, request,
// gold tool key(s), and in queries-dev4.tsv a fourth column naming the persona the request was written in.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** Every catalog file, in file-name order: { server, source, tools }. */
export function loadCatalogs() {
  return readdirSync(here('./catalogs'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(here(`./catalogs/${f}`), 'utf8')));
}

/** The catalogs' tools as the index takes them: { key, server, ...tool }. */
export function catalogTools(catalogs = loadCatalogs()) {
  return catalogs.flatMap((c) => c.tools.map((t) => ({ key: `${c.server}__${t.name}`, server: c.server, ...t })));
}

/** A query file's requests: { i (line among the requests), level, q, gold: Set of keys, split, persona (or undefined) }. */
function readQueries(file, splitOf) {
  return readFileSync(here(file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((line, i) => {
      const [level, q, gold, persona] = line.split('\t');
      return { i, level, q, gold: new Set(gold.trim().split(/\s+/)), split: splitOf(i), persona: persona?.trim() };
    });
}

/** queries.tsv (split 'dev': the whole file since round 17). */
export const mainQueries = () => readQueries('./queries.tsv', () => 'dev');
/** queries-dev2.tsv (split 'dev2'). */
export const dev2Queries = () => readQueries('./queries-dev2.tsv', () => 'dev2');
/** queries-dev3.tsv (split 'dev3', round 12). */
export const dev3Queries = () => readQueries('./queries-dev3.tsv', () => 'dev3');
/** queries-dev4.tsv (split 'dev4', round 13: written blind, by persona). */
export const dev4Queries = () => readQueries('./queries-dev4.tsv', () => 'dev4');
/** queries-dev5.tsv (split 'dev5', round 16b: written blind, in the plain style). */
export const dev5Queries = () => readQueries('./queries-dev5.tsv', () => 'dev5');
/** Every dev request: queries.tsv's dev half, then the second to fifth dev sets. */
export const devQueries = () => [...mainQueries(), ...dev2Queries(), ...dev3Queries(), ...dev4Queries(), ...dev5Queries()];
