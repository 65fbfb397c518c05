// English as a second language: words and constructions carried over from Spanish, Portuguese,
// French, Italian or German that say, in a request to a tool, something other than their English
// reading ("actualize the field" = update it, "make a reunion" = a meeting, "remember me to call the
// bank" = remind me). A small table of widely known false friends and calques, each rewritten only
// where the English reading would be wrong for a request to a tool; ordinary English ("the actual
// error message", "family reunion photos", "assist the customer") is left alone. Closed word sets only.

import { rewrite, type Rewrite } from './rewrites.js';

const RULES: readonly Rewrite[] = [
  // es actualizar, pt atualizar, fr actualiser, it attualizzare, de aktualisieren: to update. English
  // "actualize" (to make real) is never what a request to a tool means.
  [/\bactuali[sz](?:e|es|ed|ing)\b/giu, 'update'],
  [/\bactuali[sz]ations?\b/giu, 'update'],
  // es reunión, pt reunião, fr réunion, it riunione: a meeting. An English reunion is of a family, a class,
  // a school or a band; those stay.
  [/(?<!\b(?:family|families|class|school|college|university|alumni|band|cast|army|high[- ]school)\s+)\breuni[oó]n(s|es)?\b/giu, 'meeting$1'],
  // es recuérdame, pt lembra-me, it ricordami, fr rappelle-moi: remind me. English "remember me to <someone>"
  // (give them my regards) is no request to a tool; "remember that …" (a memory to keep) is left alone.
  [/\bremember\s+(me|us)\s+(?=to\b|that\b|of\b|about\b|the\b|my\b|our\b)/giu, 'remind $1 '],
  // es cambiar el nombre en, it cambiare il nome in: "change the name in new.txt" gives a new name, a rename.
  [/\b(?:change|modify)\s+(?:the\s+|its\s+)?name\s+(?=(?:of\s+[^.,;!?]{1,40}?\s+)?in(?:to)?\b)/giu, 'rename '],
  // es asistir a, fr assister à, it assistere a, pt assistir a: to attend. "assist the customer" (help) stays.
  [/\bassist(?:s|ed|ing)?\s+(?:to|at)\b/giu, 'attend'],
  // fr résumé, es resumen, pt resumo, de Resümee: a summary. The English résumé (a CV) is not "of" a meeting.
  [/\b(?:a|an|the|one)\s+r[eé]sum[eé]\s+(?=of\b|about\b|from\b)/giu, 'a summary '],
  // es/pt programar, it programmare, fr programmer: to schedule a meeting, a reminder or a message.
  [
    /\bprogramm?e?(?:s|d|ed|ing)?\s+(?=(?:a|an|the|my|one|this)\s+(?:meeting|meetings|call|reminder|event|appointment|alarm|e?mail|message|post|task)\b)/giu,
    'schedule ',
  ],
  // es/pt avisar, it avvisare, fr aviser: to let someone know. "advise me when the page changes" is a watch.
  [/\b(?:advise|avise|advice)\s+(me|us)\s+(?=when\b|whenever\b|if\b|once\b|as soon as\b)/giu, 'let $1 know '],
  // es hacer una pregunta, it fare una domanda, pt fazer uma pergunta: to ask a question.
  [/\b(?:do|does|did|doing|make|makes|made|making)\s+(?=(?:a|one|some|two|three|\d+)\s+questions?\b)/giu, 'ask '],
  // it cancellare: to delete. Files, messages and rows are deleted, never cancelled; a meeting, an order, a run or a
  // subscription is cancelled in English too, so only those other things are read as deleted.
  [
    /\bcancel(?:s|led|ed|ling|ing)?\s+(?=(?:the|this|that|these|those|my|our|a|an|all(?:\s+the)?)\s+(?:\w+\s+)?(?:files?|folders?|directory|directories|messages?|e?mails?|rows?|records?|documents?|lines?|comments?|columns?|tables?|keys?|branch(?:es)?|contacts?|notes?|photos?|pages?|collections?)\b)/giu,
    'delete ',
  ],
  // es/pt registrar: to log. "register a call / the visit / my hours" records an occurrence ("register a user" stays).
  [/\bregister(?:s|ed|ing)?\s+(?=(?:a|an|the|this|that|my|our|today's|one)\s+(?:\w+\s+)?(?:call|calls|meeting|meetings|visit|visits|expense|expenses|hours|time|payment|payments|sale|sales|activity)\b)/giu, 'log '],
  // es con (el) nombre, it con (il) nome, pt com (o) nome, fr avec le nom, de mit (dem) Namen: a new thing "with name X"
  // is named X. Only after a word of making, so "find the contact with name Jane" keeps its search by name.
  [/(?<=\b(?:new|create|creates|created|creating|make|makes|made|making|add|adds)\b[^.,;!?]{0,40}?)\bwith\s+(?:the\s+)?name\b/giu, 'named'],
  // es en internet, it in internet, de im Internet, pt na internet: searched "in internet" is searched on the web.
  [/\b(?:in|on|at)\s+(?:the\s+)?internet\b/giu, 'on the web'],
  // es poner, it mettere, fr mettre: "put it one hour later" moves it to a new time, as "move / push it an hour later" does.
  [
    /\b(?:put|puts|putting|move|moves|moved|moving|push|pushes|pushed|pushing|shift|shifts|shifted|shifting|pass|passes|passed)\b(?=[^.?!]{0,40}?\b(?:an?|one|two|three|half an|\d+)\s+(?:hours?|minutes?|mins?|days?|weeks?)\s+(?:later|earlier|before|after|forward|back)\b)/giu,
    'reschedule',
  ],
];

/** The request with each widely known false friend or calque rewritten to what such a speaker means. */
export function secondLanguage(text: string): string {
  return rewrite(text, RULES);
}
