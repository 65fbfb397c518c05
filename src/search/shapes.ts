// Shapes of a request that hints.ts did not read: a directory path ("~/Desktop", "/var/log",
// "C:\Users\me"), a key after press/hit ("hit enter", "press ctrl+s"), numbers joined by
// arithmetic ("add 17 and 25"), a tracker's issue key ("ENG-7"), a namespaced key ("user:42:profile"). Each says
// what kind of object the request is about and is taken out of the text (its words, "var", "add", "ENG", would pick
// tools by accident). None matches inside a word; no pattern nests repeats (no blow-up on long input).

import type { Hint } from './hints.js';

export interface Shape {
  name: string;
  re: RegExp;
  hint: Hint;
}

/** A path with no extension: home-relative, dot-relative, absolute with 2+ parts, or a Windows drive. */
const DIRECTORY = /(?:^|[\s"'(])(?:~\/|\.{1,2}\/|\/[\w.-]+\/|[A-Za-z]:\\)[\w.\\/-]*/g;

/** Names of keys a request presses (after press/hit/tap), or a modifier combination ("ctrl+s"). */
const KEYS = 'enter|return|escape|esc|tab|space|spacebar|backspace|delete|del|home|end|page ?up|page ?down|up arrow|down arrow|left arrow|right arrow|arrow ?(?:up|down|left|right)|arrow keys?|f[1-9]|f1[0-2]';
const KEY = new RegExp(`\\b(?:press|hit|tap)(?:es|ed|ing|s)?\\s+(?:the\\s+)?(?:${KEYS})\\b(?:\\s+key)?|\\b(?:ctrl|cmd|alt|shift|control|command|option)\\s?\\+\\s?[a-z0-9]+\\b`, 'gi');

/** Two numbers joined by an arithmetic word or sign, or an arithmetic verb on numbers. */
const NUMBER = '-?\\d+(?:\\.\\d+)?';
const ARITHMETIC = new RegExp(
  `(?:^|[^\\w.-])${NUMBER}\\s*(?:[+*×÷]|plus|minus|times|multiplied by|divided by)\\s*${NUMBER}(?![\\w.])` +
    `|\\b(?:add|sum|total|multiply|subtract|divide)\\s+(?:up\\s+)?(?:the\\s+numbers\\s+)?${NUMBER}\\s*(?:,|and|to|by|from|with)\\s*${NUMBER}(?![\\w.])` +
    `|\\b(?:sum|total|product) of\\s+${NUMBER}\\b`,
  'gi',
);

/** A tracker's issue key: 2–10 capital letters, a dash, a number ("ENG-7", "PROJ-123"). */
const ISSUE_KEY = /(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,7}(?![\w-])/g;

/**
 * An SQL statement the request carries ("select count(*) from users where …"): a value for a
 * query tool, whose words (select, count, users) are not about which tool. SQL only by its
 * markers: "*", an aggregate, a column list, a clause after the table, or insert/delete/update/create's own shapes.
 */
const SQL = /\bselect\s+(?:\*|(?:count|sum|avg|min|max|distinct)\b|[\w.]+\s*,)[^;]{0,300}?\bfrom\s+\w+[^;]*|\bselect\s[^;]{0,300}?\bfrom\s+\w+\s+(?:where|group\s+by|order\s+by|limit|join|inner\s+join|left\s+join)\b[^;]*|\binsert\s+into\s+\w+[^;]*|\bdelete\s+from\s+\w+[^;]*|\bupdate\s+\w+\s+set\s+\w+\s*=[^;]*|\bcreate\s+table\s+\w+[^;]*/gi;

/**
 * A namespaced key ("user:42:profile", "session:*", "ratelimit:" ending the request): names joined by
 * colons with no space, the convention of caches and key-value stores. Its words ("user", "profile")
 * are the value's, not the tool's. A label ("redis: list keys") has a space after its colon; a time
 * ("10:30") starts with a digit; a URL was taken before.
 */
const KEY_NAME = /(?<![\w:/.-])[A-Za-z][\w-]*(?::[\w*{}-]+)+:?(?![\w:/])|(?<![\w:/.-])[A-Za-z][\w-]*:(?=[?!.]?$)/g;

/**
 * Names joined by one slash with no space, read before the set phrases (like URLs and file names): a
 * branch ("feature/sso", "hotfix/login-timeout"), a folder under a conventional project directory
 * ("src/utils", "docs/api"), else a repository ("facebook/react", "acme/api", "kubernetes/kubernetes").
 * Their words are the value's: "react" asks for no reaction, "login" in a branch name for no log-in,
 * "kubernetes" names the repository, not the server. Each part has 2+ characters and a letter, so
 * units ("km/h"), fractions and dates ("24/7", "12/25") and "w/o" are not names; nor are the everyday
 * slash pairs of English prose ("and/or", "read/write", "client/server").
 */
const SLASH_START = String.raw`(?<![\w./~:@\\-])`;
const SLASH_PART = String.raw`(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]+`;
const SLASH_END = String.raw`(?![\w/\\])`;
const PROSE_PAIRS = String.raw`(?!(?:and|either)/or\b|read/write\b|on/off\b|yes/no\b|in/out\b|input/output\b|client/server\b|true/false\b|open/close[d]?\b|start/stop\b|pros/cons\b|his/her\b|he/she\b|him/her\b|tcp/ip\b|ci/cd\b|i/o\b)`;
const BRANCH = new RegExp(`${SLASH_START}(?:feature|feat|hotfix|bugfix|fix|release|chore|bug)/[\\w.-]+(?:/[\\w.-]+)*${SLASH_END}`, 'gi');
const PROJECT_FOLDER = new RegExp(
  `${SLASH_START}(?:src|lib|docs?|tests?|spec|apps?|bin|pkg|cmd|internal|public|assets|config|scripts|packages|components|dist|build)/[\\w.-]+(?:/[\\w.-]+)*/?${SLASH_END}`,
  'gi',
);
const REPOSITORY = new RegExp(`${SLASH_START}${PROSE_PAIRS}${SLASH_PART}/${SLASH_PART}${SLASH_END}`, 'gi');

/** Taken in this order, after URLs and file names and before the set phrases (hints.ts). */
export const SLASH_NAMES: readonly Shape[] = [
  { name: 'branch', re: BRANCH, hint: { words: 'branch', weight: 0.5 } },
  { name: 'projectFolder', re: PROJECT_FOLDER, hint: { words: 'directory folder', weight: 0.6 } },
  { name: 'repository', re: REPOSITORY, hint: { words: 'repository', weight: 0.5 } },
];

/**
 * A latitude and longitude ("48.8584, 2.2945", "-33.86,151.21"): two decimal numbers with 3+ decimals (as maps
 * copy them; "1.25, 2.30" is more likely versions), a comma between, the first within ±90 and the second within ±180 by
 * their integer parts. A point on a map, whose place is asked; its digits say nothing else.
 */
const COORDINATES = /(?<![\w.-])-?(?:[0-8]?\d|90)\.\d{3,}\s*,\s*-?(?:1[0-7]\d|0?\d?\d|180)\.\d{3,}(?![\w.])/g;

export const SHAPES: readonly Shape[] = [
  { name: 'directory', re: DIRECTORY, hint: { words: 'directory folder', weight: 0.6 } },
  { name: 'key', re: KEY, hint: { words: 'press key keyboard', weight: 0.6 } },
  { name: 'arithmetic', re: ARITHMETIC, hint: { words: 'sum calculate', weight: 0.6 } },
  { name: 'issueKey', re: ISSUE_KEY, hint: { words: 'issue', weight: 0.6 } },
  { name: 'sql', re: SQL, hint: { words: 'sql query database', weight: 0.6 } },
  { name: 'keyName', re: KEY_NAME, hint: { words: 'key', weight: 0.5 } },
  { name: 'coordinates', re: COORDINATES, hint: { words: 'coordinates latitude longitude location', weight: 0.6 } },
];
