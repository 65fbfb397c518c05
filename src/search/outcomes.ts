// Outcomes: a request may state the result wanted, not the operation ("make sure I don't forget
// the dentist", "make sure the checkout service has 6 copies running"). Read word by word,
// "forget" deletes a memory and "copies" copies files; the construction says the operation: a
// reminder to set, a count of running copies to scale to. Closed constructions, no object lists.

import { rewrite, type Rewrite } from './rewrites.js';

/** A number as people write it in a request. */
const COUNT = String.raw`(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)`;

const RULES: readonly Rewrite[] = [
  // "make sure I don't forget the dentist", "don't let me forget to pay rent": a reminder, not a deletion
  // ("forget what I told you about my old job" stays a deletion).
  [
    /\b(?:make sure|make certain|ensure)\s+(?:that\s+)?(?:i|we)\s+(?:don't|dont|do not|never|won't|will not)\s+forget\b|\b(?:don't|dont|do not)\s+(?:let\s+(?:me|us)\s+)?forget\b/giu,
    ' remind me ',
  ],
  // "make sure the service has 6 copies running", "keep 3 instances up": a wanted count of running copies is the
  // scale to set. Only after a verb of wanting or keeping, so "are there 3 copies running?" stays a question.
  [
    new RegExp(
      String.raw`(?<=\b(?:make sure|make certain|ensure|keep|have|want|need)\b[^.?!]{0,40}?)\b${COUNT}\s+(?:\w+\s+)?(?:copies|instances|replicas)\s+(?:running|up|alive|online|live)\b`,
      'giu',
    ),
    ' scale replicas ',
  ],
  // Situations whose words mean something else read alone (round 16g). "my laptop is crawling" is slowness, not a web
  // crawl; "what's eating the CPU" asks for the processes by load.
  [
    /\b(?:laptop|computer|machine|mac|pc|server|box|system|desktop)\s+(?:is|'s|feels|seems|has been|keeps)\s+(?:\w+\s+)?(?:crawling|dragging|slow|sluggish|lagging|freezing|hanging)\b/giu,
    ' slow running processes cpu ',
  ],
  [
    /\b(?:eating|hogging|chewing|maxing)\s+(?:up\s+|out\s+)?(?:all\s+)?(?:of\s+)?(?:the\s+|my\s+)?(cpu|memory|ram)\b/giu,
    ' running processes $1 usage ',
  ],
  // "the fan is going crazy", "my laptop is running hot", "what's hogging it": the processes by load.
  [
    /\b(?:fan|fans|laptop|computer|machine|mac|pc)\s+(?:is|are|'s|keeps|has been)\s+(?:going crazy|going nuts|so loud|loud|spinning up|overheating|running hot|hot)\b|\bwhat(?:'s|s| is)\s+(?:eating|hogging|chewing up|maxing out)\b/giu,
    ' running processes cpu memory usage ',
  ],
  // "how much are we paying for X": its usage and cost.
  [/\bhow\s+much\s+(?:are|do|did|have)\s+(?:we|i|you)\s+(?:been\s+)?(?:paying|spending|spend|pay|being charged)\b/giu, ' cost usage billing '],
  // "stop watching the repo": unwatch, by its notification subscription.
  [/\bstop\s+watching\b/giu, ' unwatch notification subscription '],
  // "make sure X can't get duplicate emails": a unique index.
  [/\b(?:can't|cant|cannot|can not|never|won't)\s+(?:get|have|contain|hold|accept)\s+(?:any\s+)?duplicates?\b/giu, ' unique index '],
  // "takes forever", "is taking ages": slowness, whose tools explain or profile.
  [/\b(?:takes?|taking|took)\s+(?:forever|ages|so long|too long)\b/giu, ' slow performance '],
  // A break-in: "someone got into my account", "kick every device off", "log everyone out" revoke sessions.
  [/\b(?:someone|somebody|a stranger|an attacker)\s+(?:has\s+)?(?:got|gotten|get|broke|broken)\s+into\s+my\b/giu, ' compromised account revoke sessions '],
  [/\bkick\s+(?:every|all|each|the other|other)\s+(?:\w+\s+)?(?:devices?|sessions?|one|body|logins?)\s+(?:off|out)\b/giu, ' revoke all sessions logout '],
  // "did anyone commit an API key", "a token got pushed": a leaked secret is found by secret scanning.
  [
    /\b(?:commit|committed|committing|push|pushed|check(?:ed)?\s+in|leak|leaked|expose|exposed)\s+(?:an?\s+|the\s+|our\s+|any\s+|some\s+)?(?:api\s+keys?|secrets?|tokens?|passwords?|credentials?|private\s+keys?)\b/giu,
    ' leaked secret scanning alerts ',
  ],
  // "stop pinging me about X", "quit emailing me": unsubscribe from its notifications, not send a message or stop a job.
  [/\b(?:stop|quit)\s+(?:pinging|notifying|emailing|messaging|bugging|spamming|alerting)\s+me\b/giu, ' mute notification subscription '],
  // "put a password on the site", "password-protect it": access protection.
  [/\bput\s+(?:a\s+)?password\s+on\b|\bpassword[\s-]?protect(?:ed|ion)?\b/giu, ' password protection visitor access '],
  // "I didn't actually finish X", "it isn't really done": put back to open, not mark done.
  [
    /\b(?:didn't|didnt|did not|haven't|havent|have not)\s+(?:actually|really)\s+(?:finish|finished|complete|completed|do|done)\b|\b(?:isn't|isnt|is not|wasn't|wasnt|was not)\s+(?:actually|really)\s+(?:done|finished|complete|completed)\b|\bput\s+(?:it|that|this|them)\s+back\s+on\s+(?:my|the)\s+(?:list|to-?do)\b/giu,
    ' reopen ',
  ],
  // Access: "who can see X", "who has write access to X" asks for its collaborators and their permissions.
  [
    /\bwho\s+(?:can|could|is allowed to)\s+(?:see|view|access|edit|push to|write to)\b|\bwho\s+(?:has|have|got|still has)\s+(?:\w+\s+)?access\s+(?:to|on)\b/giu,
    ' who collaborators permissions access ',
  ],
  // "what did I get done last week": the completed tasks, not a file or a blame.
  [
    /\bwhat\s+(?:did|have|has)\s+(?:i|we|the team)\s+(?:(?:get|got|gotten)\s+done|finish|finished|complete|completed|accomplish|accomplished|knock\s+out|knocked\s+out|tick\s+off|ticked\s+off)\b/giu,
    ' completed tasks ',
  ],
  // "done with pay rent", "I'm done with the slides": the task is completed.
  [/^\s*(?:(?:i'm|im|i am|we're|we are)\s+)?(?:all\s+)?done\s+with\b/giu, ' complete close task '],
];

/** The request with each outcome construction rewritten to the operation that reaches it. */
export function outcomes(text: string): string {
  return rewrite(text, RULES);
}
