// The words people use for what tools do, grouped: a query word also looks for the other words
// of its groups, at a lower weight than the word itself. Groups are symmetric and small on
// purpose: a broad group makes every tool match every query.

import { analyzeText } from './analyze.js';

/** Weight of a group member relative to the query's own word (1). */
export const SYNONYM_WEIGHT = 0.45;

/** Words of the same action or thing, as tool authors and users name it. */
const GROUPS: readonly string[] = [
  // actions
  'find search lookup query seek locate discover look',
  'get fetch retrieve read obtain view show see display load inspect',
  'create add new make insert generate build compose draft',
  'open create start file raise submit report',
  'remove delete drop destroy erase purge trash discard erase uninstall wipe nuke',
  'update edit modify change patch alter set rename adjust mark',
  'list enumerate show all browse',
  'run execute invoke exec trigger launch call perform',
  'send post publish notify dm deliver',
  'reply respond answer',
  'close resolve finish complete',
  'stop kill terminate cancel abort halt',
  'start begin launch boot',
  'restart reboot reload',
  'upload attach',
  'download export save',
  'move transfer relocate',
  'copy duplicate clone fork',
  'assign delegate',
  'schedule book plan',
  'summarize summary overview digest',
  'navigate visit browse goto go open',
  'click press tap',
  'type fill enter input write',
  'scroll swipe',
  'check status health verify',
  'translate translation',
  'merge combine',
  'compare diff difference',
  'invite add',
  'approve accept',
  'reject decline deny',
  'archive hide',
  'remember memorize store save',
  'recall remember retrieve',
  'watch monitor observe track',
  'pay charge bill',
  'refund reimburse',
  'subscribe subscription',
  'deploy release ship publish rollout',
  'analyze analyse analysis inspect examine',
  'think reason plan reflect',
  'put place add insert',
  'dismiss close cancel hide',
  'aggregate aggregation group summarize total',
  'drive driving travel commute trip',
  'login authenticate authenticated signin session',
  'rollback revert undo',
  // things
  'file document doc',
  'file spreadsheet presentation pdf',
  'dialog popup modal alert prompt confirm',
  'restaurant cafe shop store business venue place',
  'hours phone contact details info',
  'mobile phone device viewport',
  'crm customer contact deal company',
  'folder directory dir',
  'issue ticket bug defect problem task',
  'pr pull merge',
  'repo repository project codebase',
  'message chat post conversation thread dm',
  'channel room group',
  'email mail inbox gmail',
  'calendar event meeting appointment schedule agenda',
  'user member person people account profile teammate colleague',
  'team organization org workspace company group',
  'comment reply note remark feedback',
  'image picture photo pic screenshot',
  'screenshot capture snapshot screen',
  'page website site webpage web url link',
  'browser web page',
  'database db sql table',
  'record row entry item',
  'column field attribute property',
  'log logs trace',
  'error exception crash failure fail fault incident',
  'alert alarm warning incident',
  'container docker pod',
  'cluster kubernetes k8s',
  'secret key credential token password',
  'commit revision change',
  'tag label',
  'branch ref',
  'workflow pipeline action job ci build',
  'payment charge transaction',
  'invoice bill receipt',
  'customer client buyer',
  'product item sku',
  'price cost pricing fee',
  'map location place address',
  'direction route directions navigation',
  'nearby near around close',
  'distance far',
  'weather forecast',
  'note memo',
  'memory knowledge fact',
  'entity node object',
  'relation relationship link edge connection',
  'text content body',
  'title name subject heading',
  'description summary details',
  'time clock date',
  'date day today tomorrow yesterday',
  'url address link',
  'key cache value',
  'permission access role right',
  'star favorite bookmark',
  'notification alert inbox',
  'release version',
  'dependency package library',
  'vulnerability security cve advisory',
  'secret leak exposed',
  'spreadsheet sheet excel',
  'slide presentation deck',
  'video clip',
  'song music track audio',
  'word term',
  'code source',
  'function method',
  'test spec',
  'vector embedding',
  'dashboard panel chart graph',
  'metric measurement stat statistic',
  'query question ask',
  'javascript js script',
  'snapshot accessibility',
  'element node',
  'tab window',
  'form input field',
  'console terminal shell command',
  'process program app application',
  'server host machine instance',
  'environment env',
  'domain dns',
  'bucket storage',
  'function lambda serverless',
  'size length',
  'count number total',
  'recent latest new last',
  'old previous history past',
];

let table: Map<string, Map<string, number>> | undefined;

/** Group members of a term (stemmed like index terms), with their weights; empty when none. */
export function expansions(term: string): ReadonlyMap<string, number> {
  table ??= build();
  return table.get(term) ?? EMPTY;
}

const EMPTY: ReadonlyMap<string, number> = new Map();

/** Every term the groups know (a misspelt query word may be meant as one of them). */
export function synonymTerms(): Iterable<string> {
  table ??= build();
  return table.keys();
}

function build(): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const group of GROUPS) {
    const terms = [...new Set(group.split(' ').flatMap((w) => analyzeText(w)))];
    for (const a of terms) {
      let m = out.get(a);
      if (m === undefined) out.set(a, (m = new Map()));
      for (const b of terms) if (b !== a) m.set(b, SYNONYM_WEIGHT);
    }
  }
  return out;
}
