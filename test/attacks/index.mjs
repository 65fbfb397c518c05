// Every attack found so far against the gateway, each named after what it tried. `npm run attack`
// runs them against the built CLI; test/integration/attacks.test.ts runs each as a test.
import { crashes } from './crashes.mjs';
import { exhaustion } from './exhaustion.mjs';
import { leaks } from './leaks.mjs';
import { lists } from './lists.mjs';
import { stateless } from './stateless.mjs';
import { tokens } from './tokens.mjs';

export const attacks = [...crashes, ...exhaustion, ...leaks, ...lists, ...stateless, ...tokens];
