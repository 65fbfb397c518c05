// How people shorten words when they type requests: chat spellings ("tmrw", "msg", "ppl"),
// common abbreviations ("appt", "cal", "lat"), shell commands used as verbs ("mkdir", "grep") and
// chat filler ("lol", "btw"). Each is written out as the word tools use, query side only, before
// any other reading of the request. Only shorthand that is not also an everyday English word or a
// word tools themselves say is listed; a match is a whole word, never part of a URL, path or name.

/** Shorthand → what it stands for ('' for filler that says nothing about the tool wanted). */
const TABLE: ReadonlyArray<readonly [string, string]> = [
  // time and the calendar
  ['tmrw tmr tmrow tmrrw tmw 2moro 2morrow tomoz', 'tomorrow'],
  ['tdy 2day', 'today'],
  ['yday ystd yest', 'yesterday'],
  ['wk wks', 'week'],
  ['hrs', 'hours'],
  ['mins', 'minutes'],
  ['bday', 'birthday'],
  ['appt appts', 'appointment'],
  ['mtg mtgs', 'meeting'],
  ['cal', 'calendar'],
  ['1:1 1:1s 1on1 1-on-1', 'one-on-one meeting'],
  // people and messages
  ['msg msgs', 'message'],
  ['convo convos', 'conversation'],
  ['ppl', 'people'],
  ['pic pics', 'picture'],
  ['vid vids', 'video'],
  ['btn btns', 'button'],
  ['img imgs', 'image'],
  ['addr', 'address'],
  ['acct', 'account'],
  ['dept', 'department'],
  ['mgr', 'manager'],
  ['pw passwd', 'password'],
  // code and infrastructure
  ['gh', 'github'],
  ['cfg', 'config'],
  ['deps', 'dependencies'],
  ['impl', 'implementation'],
  ['dup dupe dupes', 'duplicate'],
  ['kubectl', 'kubernetes'],
  // shell commands said as verbs
  ['mkdir', 'make directory'],
  ['rmdir', 'remove directory'],
  ['ls', 'list'],
  ['grep', 'search text'],
  ['rm', 'delete'],
  ['mv', 'move'],
  ['ps', 'processes'],
  ['curl wget', 'fetch url'],
  ['chmod chown', 'permissions'],
  // numbers and places
  ['avg', 'average'],
  ['num', 'number'],
  ['qty', 'quantity'],
  ['lat', 'latitude'],
  ['lng lon', 'longitude'],
  // spelling of chat, and filler
  ['ur', 'your'],
  ['abt', 'about'],
  ['b4', 'before'],
  ['plz thx ty lol btw fyi imo idk tbh rn ugh hmm', ''],
];

const EXPANSIONS = new Map<string, string>();
for (const [words, full] of TABLE) for (const w of words.split(' ')) EXPANSIONS.set(w, full);

const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * Longest first, so "1:1s" wins over "1:1". Not after or before a character that continues a word
 * in any script ("calé" is not "cal"), a URL, path, handle or name.
 */
const PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}\\p{M}_./@#:~\\\\-])(?:${[...EXPANSIONS.keys()].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}\\p{N}\\p{M}_/@:\\\\-]|\\.[\\p{L}\\p{N}_])`,
  'giu',
);

/**
 * The request with its shorthand written out; the same string when it has none. A shorthand the
 * catalog itself says (`said`: a tool named `btn_click`, a `cfg` parameter) is left as written:
 * there it is the tools' own word.
 */
export function expandShorthand(text: string, said: (word: string) => boolean = () => false): string {
  return text.replace(PATTERN, (m) => (said(m) ? m : ` ${EXPANSIONS.get(m.toLowerCase()) ?? m} `));
}

/** Every shorthand the table knows (for tests). */
export function shorthandWords(): string[] {
  return [...EXPANSIONS.keys()];
}
