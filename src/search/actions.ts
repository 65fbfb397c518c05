// The action a tool performs and the action a query asks for, by families of verbs: fetching
// (get, list, search), writing (create, send), changing, deleting, running. A tool whose name
// says one family, asked for with a query that says only others, is likely the wrong tool of
// the right object (list_channels for "post to the channel").

import { analyzeText } from './analyze.js';

const FAMILIES: Record<string, string> = {
  fetch: 'get fetch retrieve read obtain view show see display load inspect describe list enumerate browse search find lookup query seek locate discover look',
  write: 'create add new make insert generate build compose draft send post publish notify deliver reply respond upload write',
  change: 'update edit modify change patch alter set rename adjust mark move assign',
  delete: 'delete remove drop destroy erase purge trash discard uninstall clear',
  run: 'run execute invoke exec trigger launch call perform start',
};

let table: Map<string, number> | undefined;

function families(): Map<string, number> {
  if (table !== undefined) return table;
  table = new Map();
  Object.values(FAMILIES).forEach((words, i) => {
    for (const t of analyzeText(words)) if (!table!.has(t)) table!.set(t, 1 << i);
  });
  return table;
}

/** Bit set of the action families the terms name (0: none). */
export function actionsOf(terms: Iterable<string>): number {
  const f = families();
  let bits = 0;
  for (const t of terms) bits |= f.get(t) ?? 0;
  return bits;
}
