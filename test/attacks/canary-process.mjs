#!/usr/bin/env node
// A canary in a process of its own: another client of the gateway, calling a tool one call at a
// time while an attack runs. In the attacker's own process its requests would wait behind the
// attacker's writes (one event loop sending hundreds of MiB), and a header it could not send in
// time would be the attacker's delay, not the gateway's.
//   node canary-process.mjs URL TOKEN TOOL MIN
// Prints "ready" once its session is open; calls from the first line on stdin until the second
// (and at least MIN times), then prints one JSON line: { ok, total, errors } (the first few, cut).

import { once } from 'node:events';
import { HttpClient } from './lib.mjs';

const [url, token, tool, min] = process.argv.slice(2);
const canary = new HttpClient(url, { token });
await canary.initialize();
process.stdout.write('ready\n');
await once(process.stdin, 'data');
let stopped = false;
process.stdin.once('data', () => (stopped = true));
let ok = 0;
let total = 0;
const errors = [];
for (let i = 0; !stopped || i < Number(min); i++, total++) {
  const r = await canary.call(tool, { text: `c${i}` }).catch((e) => ({ error: String(e) }));
  if (r?.response?.result?.content?.[0]?.text === `c${i}`) ok++;
  else if (errors.length < 3) errors.push(JSON.stringify(r?.response ?? r).slice(0, 160));
}
process.stdout.write(`${JSON.stringify({ ok, total, errors })}\n`);
process.exit(0);
