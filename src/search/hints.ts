// What a query's shape says beyond its words: a URL means a web page, `config.yaml` means a
// file, "who" asks for people, "how many" for a count, "which ... are there" for a list; more
// shapes (directories, keys, arithmetic, issue keys) in shapes.ts. Each hint adds one concept at
// a low weight; URL and file-name words are replaced, not kept, since "example" and "com" say
// nothing about the tool wanted. General phrasing rules only.

import { lightVerbs } from './light-verbs.js';
import { rewrite, type Rewrite } from './rewrites.js';
import { outcomes } from './outcomes.js';
import { workPhrases } from './work-phrases.js';
import { secondLanguage } from './second-language.js';
import { SHAPES, SLASH_NAMES } from './shapes.js';

export interface Hint {
  /** Words of the concept the hint adds (analyzed like query words). */
  words: string;
  weight: number;
}

const URL = /\b(?:https?:\/\/\S+|(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|co|app|gov|edu|info|uk|de|fr)\b(?:\/\S*)?)/gi;
/** A file name (a path, several dots, a known extension; README, Makefile, Dockerfile): its words are the value's. */
const FILE_ATOM = String.raw`(?:[\w.-]+[\\/])*[\w-]*(?:\.[\w-]+)*\.(?:txt|md|json|ya?ml|csv|log|pdf|png|jpe?g|gif|svg|js|ts|tsx|py|go|rs|java|rb|toml|ini|xml|html?|css|sh|sql|docx?|xlsx?|pptx?|zip|env)\b|\bREADME\b|\bMakefile\b|\bDockerfile\b`;
const FILE = new RegExp(String.raw`(?:^|[\s"'(])(?:~|\.{1,2}|[A-Za-z]:)?[\\/]?${FILE_ATOM}`, 'gi');
const CHANNEL = /(?:^|\s)#[A-Za-z][\w-]*/g;
const MENTION = /(?:^|\s)@[\w-]+\b/g;
const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.]+\b/g;
/** A time of day ("2pm", "10:30 am", "9 a.m."), as a pattern's source: also a time to move a thing to, below. */
const TIME_OF_DAY = String.raw`\d{1,2}(?::\d{2})?\s?(?:[ap]m\b|[ap]\.m\.)`;
/** A time of day is a value, whose "pm" is not a private message nor "am" a verb. */
const TIME = new RegExp(String.raw`\b${TIME_OF_DAY}`, 'gi');

/**
 * A new meeting with someone on a day at a time: "book a call with Globex thursday 3pm", "book 30 min with dana friday
 * 2pm", "make a reunion with the team on monday at 10". The indefinite article or a length says the meeting does not
 * exist yet; "cancel my meeting with Dan on friday at 3pm" names one that does, and is left to its verb.
 */
const NEW_MEETING = new RegExp(String.raw`\b(?:a|an|\d+\s*(?:m|min|mins|minutes?|h|hrs?|hours?))\s+(?:[\w-]+\s+){0,2}?with\b[^.?!]{1,40}?\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tmrw|tonight)\b[^.?!]{0,20}?(?:${TIME_OF_DAY}|\d{1,2}:\d{2}|\bat \d{1,2}\b)`, 'i');

/** File names a request lists together ("package.json and tsconfig.json", "the Dockerfile, docker-compose.yml"): several files at once, not one. */
const FILE_LIST = new RegExp(String.raw`(?:${FILE_ATOM})\s*(?:,\s*(?:and\s+|&\s+)?|\s(?:and|&)\s+)(?:the\s+)?(?:${FILE_ATOM})`, 'i');

/**
 * A person put on a work item is its assignee ("put @kmiller on issue 230", "stick Priya on ENG-99"): the person is a
 * handle or one capitalised name, the item a tracker's (issue, ticket, task, PR, bug, card, story, a number or a key).
 * Read on the request as written: the handle is taken out of the text before the rules.
 */
const PUTTING = String.raw`\b(?:put|puts|putting|stick|sticks|add|adds|throw|throws)\b`;
const PERSON_ON_ITEM = new RegExp(String.raw`${PUTTING}\s+(?:@[\w-]+|[A-Z][a-z]+)\s+on(?:to)?\s+(?:(?:the|this|that|our|my)\s+)?(?:(?:issues?|tickets?|tasks?|prs?|pull requests?|bugs?|cards?|stor(?:y|ies))\b|#\d|[A-Z][A-Z0-9]{1,9}-\d)`);
/** The verb of that construction, in the text the values were taken out of. */
const PUTTING_VERB = new RegExp(PUTTING, 'i');

/** An owned time of day names an appointment ("cancel my 4pm with Initech", "is our 10:30 still on"): a calendar's event. */
const OWNED_TIME = new RegExp(String.raw`\b(?:my|our|your|his|her|their|the|this|that|tomorrow's|today's|\w+day's)\s+(?:${TIME_OF_DAY}|\d{1,2}:\d{2}\b)`, 'i');
const CALENDAR: Hint = { words: 'event calendar', weight: 0.4 };

const CODE_SWAP = /\b(?:swap|replace|change|turn|rewrite|substitute)(?:s|d|ed|ing)?\s+(?:the\s+)?`[^`\n]{1,200}`\s+(?:for|with|to|into|by|→|->)\s+`[^`\n]{1,200}`/gi;

/** A URL's hint, kept by identity so later rules can ask whether the request named a page. */
const PAGE: Hint = { words: 'url page website', weight: 0.6 };
/** A question whether something answers: "is … up / down / loading / working / reachable". */
const SITE_UP = /\b(?:is|are|does|do)\b[^.?!]{0,40}\b(?:up|down|loading|load|working|reachable|responding|online|offline)\b/i;

const RULES: readonly [RegExp, Hint][] = [
  [/\bwho\b/i, { words: 'user member people', weight: 0.4 }],
  // "who's on the team", "who is the doc shared with", "who's working on the Checkout project": the thing's people.
  [
    /\bwho(?:'s| is| are)? (?:on|in)\b|\bwho\b[^.?!]{0,60}\b(?:shar(?:e|ed|es|ing)|access)\b|\bwho(?:'s| is| are)? (?:working|helping) (?:on|with)\b|\bwho(?:'s| is| are)? (?:in charge of|responsible for|involved in)\b/i,
    { words: 'collaborator member', weight: 0.5 },
  ],
  [/\bwhen\b|\bwhat time\b/i, { words: 'time date', weight: 0.4 }],
  [/\bwhere\b/i, { words: 'find search location', weight: 0.3 }],
  [/\bhow (?:many|much)\b|\bnumber of\b/i, { words: 'count total number', weight: 0.5 }],
  [/\b(?:which|any)\b|\bwhat(?:'s| is| are)? (?:in|on)\b|\b(?:is|are) there\b|\bshow me (?:all|the|my|every)\b/i, { words: 'list all', weight: 0.4 }],
  // Code in backticks to run ("run `df -h`", "start `npm run dev`") is a shell command.
  [/\b(?:run|execute|exec|start|launch|type)\s+(?:this\s+|the\s+)?`[^`\n]{1,200}`/i, { words: 'command terminal process', weight: 0.6 }],
  // A standing watch ("let me know whenever the pricing page changes", "alert me when it goes down") asks for a monitor.
  [/\b(?:let me know|tell me|alert me|notify me|ping me|warn me|email me|message me)\s+(?:when|whenever|if|once|as soon as)\b/i, { words: 'monitor watch', weight: 0.5 }],
  // "the text of …", "pull the text off …": the thing's content, to be read.
  [/\b(?:text|contents?)\s+(?:of|off|from)\b/i, { words: 'content read', weight: 0.5 }],
  // "how's the sprint going", "how is the launch coming along": its progress, in figures.
  [/\bhow(?:'s| is| are)\b[^.?!]{0,40}\b(?:going|doing|coming along|looking)\b/i, { words: 'progress statistics', weight: 0.5 }],
  // Blocking time ("block 2h friday morning", "block out three focus sessions") puts an event on the calendar.
  [/\bblock(?:s|ed|ing)?\s+(?:out\s+|off\s+)?(?:some\s+|an?\s+|the\s+)?(?:\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|m|mins?|minutes?)\b|(?:one|two|three|four|five|\d+)\s+(?:\w+\s+)?(?:hours?|sessions?|slots?|blocks?)\b|(?:time|focus|an hour|half an hour)\b)/i, { words: 'event calendar schedule', weight: 0.5 }],
  [/\blet (?:\w+ ){1,3}know\b|\bheads up\b|\btell (?!me\b|us\b)\w+/i, { words: 'send message notify', weight: 0.5 }],
  // A day of the week is when things are planned ("cancel friday's demo", "what do I have this weekend"); a time of day
  // alone is not (round 10: "the meeting moved to 4pm" is a note).
  [/\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day's\b|\bweekends?\b/i, CALENDAR],
];

/** Phrasal verbs and set phrases, rewritten to the word tools use for them. */
const PHRASES: readonly Rewrite[] = [
  // Right after a determiner, "login" and "sign-in" name a thing ("the login box", "my sign in page"), not the act.
  [/(?<!\b(?:the|these|those|all|my|our|your|their|some|this|that|a|an)\s+)(?:\blog(?:ged|ging|s)? ?in(?:to)?\b|\bsign(?:ed|ing|s)? ?in(?:to)?\b)/gi, ' login authenticated account '],
  [/\blog(?:ged|ging|s)? ?out\b|\bsign(?:ed|ing|s)? ?out\b/gi, ' logout session '],
  [/\bsign(?:ed|ing|s)? ?up\b/gi, ' signup register '],
  [/\broll(?:ed|ing|s)? ?back\b/gi, ' rollback revert '],
  [/\blook(?:ed|ing|s)? (?:up|for|into)\b/gi, ' find search '],
  [/\bset(?:ting|s)? up\b/gi, ' setup create configure '],
  [/\b(?:jot|write|note)(?:ted|ting|s)? down\b/gi, ' note remember '],
  [/\b(?:get|got|getting) rid of\b/gi, ' delete '],
  [/\bturn(?:ed|ing|s)? off\b/gi, ' disable stop '],
  [/\bturn(?:ed|ing|s)? on\b/gi, ' enable start '],
  [/\bkick(?:ed|ing|s)? off\b/gi, ' start trigger run '],
  [/\bcheck(?:ed|ing|s)? out\b/gi, ' checkout '],
  [/\bhow long\b|\bhow far\b/gi, ' distance duration time '],
  [/\bup to date\b/gi, ' update sync latest '],
  [/\bfrom now on\b|\bgoing forward\b/gi, ' automatically '],
  // Moving a thing to a time is rescheduling it ("push the dentist task to friday", "bump standup to 4pm"); "move it to the Work project" is not.
  [
    new RegExp(
      String.raw`\b(?:push|bump|shift|move|postpone)(?:ed|es|ing|s)?\b(?=[^.?!]{0,50}?\b(?:to|till|until|for)\s+(?:next\s+|this\s+|the\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|today|later|noon|morning|afternoon|evening|week|month|weekend|${TIME_OF_DAY}|\d{1,2}:\d{2})\b)`,
      'gi',
    ),
    ' reschedule ',
  ],
  // Moving the appointment a time names ("move my 2pm with Initech to 4", "push tomorrow's 10am") is rescheduling it, whatever it moves to.
  [
    new RegExp(String.raw`\b(?:push|bump|shift|move|postpone)(?:ed|es|ing|s)?\b(?=\s+(?:my|our|your|his|her|their|the|this|that|\w+'s)\s+(?:${TIME_OF_DAY}|\d{1,2}:\d{2}))`, 'gi'),
    ' reschedule ',
  ],
  // Questions whose phrase, not their words, says the job (round 12: dev2 and dev3, written apart, both ask them).
  [/\bwho (?:won|wins|is winning|will win)\b/gi, ' winner '],
  [/\bhow high(?: up)?\b|\babove (?:the )?sea(?: level)?\b|\bsea level\b/gi, ' elevation '],
  [/\b(?:api|http|xhr|ajax|network) calls?\b/gi, ' network requests '],
  [/\b(?:what|anything) (?:do|did) you (?:know|remember|recall)\b/gi, ' knowledge memory recall '],
];

export interface QueryShape {
  /** The query with URLs, file names, channels and mentions taken out. */
  text: string;
  hints: Hint[];
}

export function queryShape(query: string): QueryShape {
  const hints: Hint[] = [];
  let text = query;
  const take = (re: RegExp, hint: Hint): void => {
    const stripped = text.replace(re, ' ');
    if (stripped !== text) {
      hints.push(hint);
      text = stripped;
    }
  };
  take(EMAIL, { words: 'email address', weight: 0.5 });
  take(URL, PAGE);
  // One piece of code put in place of another ("swap `const port = 3000` for `…`", "replace `foo()` with `bar()`") is an edit;
  // the code's words are the values, not the tool's.
  take(CODE_SWAP, { words: 'edit replace', weight: 0.6 });
  take(FILE, { words: 'file', weight: 0.6 });
  if (FILE_LIST.test(query)) hints.push({ words: 'multiple', weight: 0.5 });
  for (const shape of SLASH_NAMES) take(shape.re, shape.hint);
  take(CHANNEL, { words: 'channel', weight: 0.6 });
  take(MENTION, { words: 'user', weight: 0.4 });
  // Set phrases are read once the values are out: "/login" in a URL, "signup.md" or "#sign-up" is a value's text,
  // not the user logging in or signing up.
  text = secondLanguage(text);
  text = rewrite(text, PHRASES);
  // Workplace phrasal verbs after the light-verb constructions: "hand #230 over to alice" keeps its assignee.
  text = outcomes(workPhrases(lightVerbs(text)));
  text = text.replace(TIME, ' ');
  for (const shape of SHAPES) take(shape.re, shape.hint);
  for (const [re, hint] of RULES) if (re.test(text)) hints.push(hint);
  // Read on the request as written: the time itself was taken out of the text above.
  if (!hints.includes(CALENDAR) && OWNED_TIME.test(query)) hints.push(CALENDAR);
  // Its verb says nothing of the job ("put" would pick an HTTP PUT): the assignment is what is asked.
  if (PERSON_ON_ITEM.test(query)) text = text.replace(PUTTING_VERB, ' assign ');
  // "is status.acme.io loading at all", "is the site at example.com down": whether a page answers is seen by opening it.
  if (hints.includes(PAGE) && SITE_UP.test(text)) hints.push({ words: 'open fetch navigate', weight: 0.5 });
  if (NEW_MEETING.test(query)) hints.push({ words: 'create event', weight: 0.4 });
  return { text, hints };
}
