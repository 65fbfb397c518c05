// Phrasal verbs and verb idioms of workplace English, in the sense they have with work software.
// Read word by word they name the wrong action ("pull up ticket 15" is no pull request, "tick off
// 'call the dentist'" no call), and phrasal.ts only mutes their verb. WordNet has their physical
// senses (round 16d), so this is a closed table written from general usage with trackers, mail,
// calendars, chat, docs, repos, CI, clouds, CRMs and browsers, each meaning in the words tools use.
// hints.ts's set phrases come first; the light-verb constructions ("hand #12 over to Sam") too.

import { rewrite, type Rewrite } from './rewrites.js';

/** Short objects that may stand between the verb and its particle ("kick it off", "tick them off"). */
const HELD = String.raw`(?:\s+(?:it|them|this|that|these|those|me|us|him|her|everything|everyone))?`;

/**
 * One entry: the verb's forms, the particle (and any preposition that belongs to the idiom), and
 * what it means. The particle must follow the verb or a held pronoun.
 */
type Entry = readonly [forms: string, particle: string, meaning: string];

const ENTRIES: readonly Entry[] = [
  // Opening or showing a thing.
  ['pull pulls pulled pulling', 'up', 'open show get'],
  ['bring brings brought bringing', 'up', 'open show get'],
  ['dig digs dug digging', 'up', 'find search'],
  ['dig digs dug digging', 'into', 'investigate search'],
  // Completing an item of a list.
  ['tick ticks ticked ticking', 'off', 'complete close done'],
  ['check checks checked checking', 'off', 'complete close done'],
  ['cross crosses crossed crossing', 'off', 'complete close done'],
  ['mark marks marked marking', 'off', 'complete close done'],
  ['wrap wraps wrapped wrapping', 'up', 'complete close finish'],
  // Creating and starting; stopping and removing.
  ['spin spins spun spinning', 'up', 'create start run'],
  ['fire fires fired firing', 'up', 'start run launch'],
  ['boot boots booted booting', 'up', 'start run launch'],
  ['start starts started starting', 'up', 'start run launch'],
  ['spin spins spun spinning', 'down', 'stop delete scale'],
  ['tear tears tore torn tearing', 'down', 'delete destroy'],
  ['take takes took taken taking', 'down', 'delete stop'],
  ['shut shuts shutting', 'down', 'stop shutdown'],
  ['shut shuts shutting', 'off', 'stop disable'],
  ['switch switches switched switching', 'off', 'disable stop'],
  ['switch switches switched switching', 'on', 'enable start'],
  ['power powers powered powering', '(?:off|down)', 'stop shutdown'],
  ['wind winds wound winding', 'down', 'stop scale'],
  ['scale scales scaled scaling', '(?:up|down|out|in)', 'scale'],
  ['wipe wipes wiped wiping', 'out', 'delete clear'],
  ['throw throws threw thrown throwing', 'away', 'delete discard'],
  ['call calls called calling', 'off', 'cancel delete'],
  // Releasing, restoring, saving.
  ['roll rolls rolled rolling', 'out', 'deploy release'],
  ['push pushes pushed pushing', 'out', 'deploy release publish'],
  ['put puts putting', 'out', 'release publish'],
  ['back backs backed backing', 'up', 'backup export'],
  ['back backs backed backing', 'out', 'revert undo'],
  ['put puts putting', 'back', 'restore reopen'],
  ['bring brings brought bringing', 'back', 'restore reopen'],
  // Time: moving and reserving it.
  ['put puts putting', 'off', 'postpone reschedule'],
  ['push pushes pushed pushing', 'back', 'postpone reschedule'],
  ['pencil pencils pencilled penciled pencilling penciling', 'in', 'schedule event'],
  ['block blocks blocked blocking', '(?:out|off)', 'schedule event busy'],
  // People: assigning, adding, removing, approving.
  ['hand hands handed handing', '(?:off|over)', 'assign transfer'],
  ['pick picks picked picking', 'up', 'assign'],
  ['loop loops looped looping', 'in', 'add invite'],
  ['bring brings brought bringing', 'in', 'add invite'],
  ['kick kicks kicked kicking', 'out', 'remove'],
  ['sign signs signed signing', 'off on', 'approve'],
  // Messages: sending, answering, reading what was missed.
  ['reach reaches reached reaching', 'out to', 'message contact send'],
  ['follow follows followed following', 'up (?:with|on)', 'reply reminder'],
  ['write writes wrote written writing', 'back', 'reply'],
  ['reply replies replied replying', 'back', 'reply'],
  ['send sends sent sending', '(?:out|off|over)', 'send'],
  ['fire fires fired firing', 'off', 'send'],
  ['shoot shoots shot shooting', '(?:off|over)', 'send'],
  ['pass passes passed passing', '(?:on|along)', 'forward'],
  ['catch catches caught catching', 'up on', 'recent unread history'],
  ['turn turns turned turning', 'down', 'decline reject'],
  ['opt opts opted opting', 'out of', 'unsubscribe'],
  ['opt opts opted opting', 'in to', 'subscribe'],
  // Reading and reviewing; forms.
  ['look looks looked looking', 'over', 'review read'],
  ['read reads reading', 'through', 'read'],
  ['fill fills filled filling', 'out', 'fill form'],
  ['turn turns turned turning', 'in', 'submit'],
  ['hand hands handed handing', 'in', 'submit'],
  ['narrow narrows narrowed narrowing', 'down', 'filter search'],
  ['filter filters filtered filtering', 'out', 'filter exclude'],
  ['hook hooks hooked hooking', 'up', 'connect integrate'],
  // Browsers.
  ['scroll scrolls scrolled scrolling', '(?:up|down)', 'scroll'],
  ['mouse mouses moused mousing', 'over', 'hover'],
  ['hover hovers hovered hovering', 'over', 'hover'],
  ['log logged logging', 'off', 'logout session'],
  // Not "logs": "logs on node-3" is the logs of a node.
  ['log logged logging', 'on', 'login authenticated account'],
];

/** Idioms that are not verb + particle. */
const IDIOMS: readonly Rewrite[] = [
  // Answering an invitation.
  [/\bsa(?:y|ys|id|ying) yes to\b/giu, ' accept respond '],
  [/\bsa(?:y|ys|id|ying) no to\b/giu, ' decline respond '],
  [/\brsvp(?:'d|ed|ing|s)?\b/giu, ' respond '],
  // "leave a note on ENG-45", "drop a comment on the PR": a comment.
  [/\b(?:leav(?:e|es|ing)|left|drop(?:s|ped|ping)?)\s+(?:a|an|my|our)\s+(?:quick\s+|short\s+)?(?:note|comment|remark)\b/giu, ' comment '],
  // "drop Sam a line", "drop me a message": a message.
  [/\bdrop(?:s|ped|ping)?\s+(?:\w+\s+)?a\s+(?:line|message|note)\b/giu, ' message send '],
  // "jump on a call with Dana", "hop on a quick call": a meeting.
  [/\b(?:jump|hop)(?:s|ed|ped|ing|ping)?\s+on\s+(?:a\s+)?(?:quick\s+)?(?:call|meeting|zoom)\b/giu, ' meeting event '],
  // "put together a report": making it.
  [/\bput(?:s|ting)?\s+together\b/giu, ' create '],
  // "stand up a staging env": creating it (not the stand-up meeting, which a determiner does not follow).
  [/\bst(?:and|ands|ood|anding)\s+up\s+(?=(?:a|an|the|new|another)\b)/giu, ' create deploy '],
];

/** Each entry as a rule, with its verb's forms: a request only runs the rules whose verb it says. */
const ENTRY_RULES: readonly { forms: readonly string[]; re: RegExp; meaning: string }[] = ENTRIES.map(([forms, particle, meaning]) => ({
  forms: forms.split(' '),
  re: new RegExp(String.raw`\b(?:${forms.split(' ').join('|')})${HELD}\s+${particle.replace(/ /g, String.raw`\s+`)}\b`, 'giu'),
  meaning: ` ${meaning} `,
}));

/** Every rule in the order they apply, ungated (what `workPhrases` must equal; its tests compare the two). */
export const WORK_PHRASE_RULES: readonly Rewrite[] = [...ENTRY_RULES.map((r) => [r.re, r.meaning] as const), ...IDIOMS];

/** The words `\b` delimits, as the rules see them. */
const WORD_RUN = /\w+/g;

/**
 * The request with each workplace phrasal verb and idiom rewritten to the action it means. A rule
 * whose verb the request does not say cannot match, so it is not run: sixty-odd scans of every
 * request were a tenth of a query's time. A rewrite's words join the said ones, so a later rule
 * sees the text exactly as running every rule in order would.
 */
export function workPhrases(text: string): string {
  const said = new Set((text.toLowerCase().match(WORD_RUN) ?? []));
  for (const rule of ENTRY_RULES) {
    if (!rule.forms.some((f) => said.has(f))) continue;
    const next = text.replace(rule.re, rule.meaning);
    if (next !== text) {
      for (const w of rule.meaning.match(WORD_RUN) ?? []) said.add(w);
      text = next;
    }
  }
  return rewrite(text, IDIOMS);
}
