#!/usr/bin/env node
// The least a Node process in the middle can do: pipe its stdin to a child's stdin and the child's
// stdout to its stdout, with no parsing at all (not even the floor proxy's id remap). What this
// reaches is what Node's streams and one more process cost on this machine.
//
//   node byte-relay.mjs CMD ARGS...

import { spawn } from 'node:child_process';

const [cmd, ...args] = process.argv.slice(2);
if (cmd === undefined) {
  process.stderr.write('usage: byte-relay.mjs CMD ARGS...\n');
  process.exit(2);
}
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => process.exit(code ?? 0));
