// Values a request carries, and parameters that take them: "go to example.com" holds a URL, and a
// tool with a `url` parameter is built to receive it; "#general" is a channel, "PR 42" a number,
// "select ... from" SQL. Both sides are reduced to a bit set of value kinds by general patterns:
// the query's surface shapes, and each parameter's name words and JSON-Schema format.

import { splitName } from './tokenize.js';

export const KIND = {
  url: 1,
  email: 2,
  path: 4,
  date: 8,
  number: 16,
  channel: 32,
  sql: 64,
  user: 128,
} as const;

/** Parameter name words (singular, lower case) that say which kind of value the parameter takes. */
const PARAM_WORDS: Record<string, number> = {
  url: KIND.url,
  uri: KIND.url,
  urls: KIND.url,
  href: KIND.url,
  link: KIND.url,
  website: KIND.url,
  email: KIND.email,
  to: KIND.email,
  recipient: KIND.email,
  cc: KIND.email,
  bcc: KIND.email,
  path: KIND.path,
  file: KIND.path,
  filename: KIND.path,
  filepath: KIND.path,
  dir: KIND.path,
  directory: KIND.path,
  folder: KIND.path,
  date: KIND.date,
  time: KIND.date,
  datetime: KIND.date,
  start: KIND.date,
  end: KIND.date,
  since: KIND.date,
  until: KIND.date,
  due: KIND.date,
  deadline: KIND.date,
  number: KIND.number,
  num: KIND.number,
  channel: KIND.channel,
  sql: KIND.sql,
  user: KIND.user,
  username: KIND.user,
  login: KIND.user,
  assignee: KIND.user,
  owner: KIND.user,
};

const FORMATS: Record<string, number> = {
  uri: KIND.url,
  url: KIND.url,
  'uri-reference': KIND.url,
  iri: KIND.url,
  email: KIND.email,
  'idn-email': KIND.email,
  date: KIND.date,
  'date-time': KIND.date,
  time: KIND.date,
};

const MAX_PARAMS = 64;

function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** Kinds of value the tool's top-level parameters take (0: none recognised). */
export function parameterKinds(inputSchema: unknown): number {
  if (inputSchema === null || typeof inputSchema !== 'object') return 0;
  const props = (inputSchema as { properties?: unknown }).properties;
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return 0;
  let bits = 0;
  let n = 0;
  for (const [name, value] of Object.entries(props as Record<string, unknown>)) {
    if (n++ >= MAX_PARAMS) break;
    for (const w of splitName(name)) bits |= PARAM_WORDS[w] ?? PARAM_WORDS[singular(w)] ?? 0;
    const format = (value as { format?: unknown } | null)?.format;
    if (typeof format === 'string') bits |= FORMATS[format.toLowerCase()] ?? 0;
  }
  return bits;
}

const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.]+\b/g;

const PATTERNS: readonly [RegExp, number][] = [
  [/\bhttps?:\/\/\S+|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|co|app|gov|edu|info|uk|de|fr)\b/i, KIND.url],
  [
    /(?:^|[\s"'(])(?:~|\.{1,2})?\/[\w.-]+|\b[\w-]+\.(?:txt|md|json|ya?ml|csv|log|pdf|png|jpe?g|gif|svg|js|ts|tsx|py|go|rs|java|rb|toml|ini|xml|html?|css|sh|sql|docx?|xlsx?|pptx?|zip|env)\b/i,
    KIND.path,
  ],
  [
    /\b\d{4}-\d{2}-\d{2}\b|\b(?:today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|noon|midnight)\b|\b\d{1,2}(?::\d{2})? ?(?:am|pm)\b|\b(?:next|last|this) (?:week|month|year|quarter)\b/i,
    KIND.date,
  ],
  [/(?:^|\s)#\d+\b|\b(?:issue|pr|pull request|ticket|number|no\.?) ?#?\d+\b/i, KIND.number],
  [/(?:^|\s)#[a-z][\w-]*/i, KIND.channel],
  [/\bselect\b[^.]*\bfrom\b|\binsert into\b|\bupdate \w+ set\b|\bdelete from\b|\bcreate table\b/i, KIND.sql],
  [/(?:^|\s)@[a-z][\w-]*\b(?!\.)/i, KIND.user],
];

/** Kinds of value the request itself carries (0: none). */
export function valueKinds(query: string): number {
  // An address is not also a domain or a mention.
  const text = query.replace(EMAIL, ' ');
  let bits = text === query ? 0 : KIND.email;
  for (const [re, kind] of PATTERNS) if (re.test(text)) bits |= kind;
  return bits;
}
