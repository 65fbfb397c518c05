// Every attack found so far against the gateway, each named after what it tried and filed under the
// class of weakness it belongs to (docs/security.md, "Attacks, by class", lists them by class, and a test
// keeps that list complete). `npm run attack` runs them against the built CLI;
// test/integration/attacks.test.ts runs each as a test.
import { codemode } from './codemode.mjs';
import { crashes } from './crashes.mjs';
import { credentials } from './credentials.mjs';
import { exhaustion } from './exhaustion.mjs';
import { leaks } from './leaks.mjs';
import { lists } from './lists.mjs';
import { names } from './names.mjs';
import { principals } from './principals.mjs';
import { relay } from './relay.mjs';
import { stateless } from './stateless.mjs';
import { tokens } from './tokens.mjs';
import { vouch } from './vouch.mjs';

/** The classes, in the order docs/security.md gives them. */
export const CLASSES = {
  exhaustion: 'Exhaustion: a peer makes the gateway hold memory, CPU, time or slots without bound',
  fairness: 'Starvation: one principal takes what every client shares',
  policy: "Policy bypass: a client reaches what its profile denies, or a server what another's rules protect",
  sandbox: "Sandbox escape: a code-mode script reaches the gateway's process, its host objects or its prototypes",
  integrity: 'Protocol integrity: what the gateway passes on is what it vouches for',
  secrets: 'Secrets and exposure: tokens, environment, logs, network reach',
  model: 'What reaches the model: injection, rug pulls, tools hidden from it',
};

/** The class of an attack: by its item, where one item is one class. */
const BY_ITEM = {
  1: 'exhaustion',
  2: 'exhaustion',
  3: 'exhaustion',
  4: 'exhaustion',
  6: 'exhaustion',
  7: 'integrity',
  28.1: 'exhaustion',
  28.2: 'exhaustion',
  28.4: 'exhaustion',
  28.3: 'fairness',
  5: 'integrity',
  28.8: 'integrity',
  16: 'integrity',
  8: 'policy',
  9: 'policy',
  11: 'policy',
  12: 'policy',
  13: 'policy',
  apps: 'policy',
  28.5: 'policy',
  28.6: 'policy',
  28.7: 'policy',
  10: 'secrets',
  14: 'secrets',
  15: 'secrets',
  oauth: 'secrets',
  28.9: 'model',
  '28.10': 'model',
  30.1: 'sandbox',
  30.2: 'exhaustion',
  30.3: 'policy',
  30.4: 'fairness',
  32: 'exhaustion',
  33: 'policy',
};
/** Items whose attacks fall in different classes. */
const BY_NAME = {
  "a tool result shaped like the gateway's raw-answer record is sent as the answer, unsanitized": 'integrity',
  'raw carriage returns in a passed-through answer forge an SSE event': 'integrity',
  'injections in fields the sanitizer never cleaned': 'model',
  "another profile resumes a client's input round with its requestState": 'policy',
  "another client replays a client's SSE stream with its Last-Event-ID": 'policy',
  'a stateless request reaches a tool outside its profile': 'policy',
  'a stateful-era server asks a stateless client for input past the gateway': 'integrity',
  'one user fills the connection pool': 'fairness',
  'a per-user secret in the logs': 'secrets',
};

export const attacks = [...crashes, ...exhaustion, ...leaks, ...stateless, ...tokens, ...lists, ...principals, ...relay, ...names, ...vouch, ...codemode, ...credentials].map((a) => ({
  ...a,
  class: BY_NAME[a.name] ?? BY_ITEM[a.item],
}));
