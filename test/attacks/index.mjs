// Every attack found so far against the gateway, each named after what it tried. `npm run attack`
// runs them against the built CLI; test/integration/attacks.test.ts runs each as a test.
import { crashes } from './crashes.mjs';
import { exhaustion } from './exhaustion.mjs';
import { leaks } from './leaks.mjs';
import { lists } from './lists.mjs';
import { names } from './names.mjs';
import { principals } from './principals.mjs';
import { relay } from './relay.mjs';
import { stateless } from './stateless.mjs';
import { tokens } from './tokens.mjs';
import { vouch } from './vouch.mjs';

export const attacks = [...crashes, ...exhaustion, ...leaks, ...stateless, ...tokens, ...lists, ...principals, ...relay, ...names, ...vouch];
