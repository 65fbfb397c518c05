// Which stderr line explains a failed start: on the shapes Node and npm really print (captured
// from Node 20 and npm 10), and bounded whatever a server writes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StderrTail, TAIL_LINES, TAIL_LINE_CHARS, informativeLine } from '../../../src/outbound/stderr-tail.js';

const NODE_THROW = `starting up
file:///tmp/sbx/throws.mjs:2
throw new Error('cannot open database at /var/lib/thing.db');
      ^

Error: cannot open database at /var/lib/thing.db
    at file:///tmp/sbx/throws.mjs:2:7
    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)
    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5)

Node.js v20.20.2`;

const NODE_MODULE_NOT_FOUND = `node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad' imported from /srv/server.mjs
    at packageResolve (node:internal/modules/esm/resolve:873:9)
    at importModuleDynamicallyWrapper (node:internal/vm/module:434:21) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.20.2`;

const NPM_404 = `npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.
npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fno-such-server - Not found
npm error 404
npm error 404  '@example/no-such-server@*' is not in this registry.
npm error 404
npm error 404 Note that you can also install from a
npm error 404 tarball, folder, http url, or git url.
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-22T18_49_50_560Z-debug-0.log`;

const NPM_OTHER = `npm error code ENOENT
npm error syscall spawn some-binary
npm error path /work
npm error errno -2
npm error enoent spawn some-binary ENOENT
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log`;

const lines = (text: string) => text.split('\n');

describe('informativeLine', () => {
  it.each([
    ['a thrown Error', NODE_THROW, 'Error: cannot open database at /var/lib/thing.db'],
    ['a missing module', NODE_MODULE_NOT_FOUND, "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad' imported from /srv/server.mjs"],
    ['npm 404 (npx of a package that does not exist)', NPM_404, 'npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fno-such-server - Not found'],
    ['another npm error', NPM_OTHER, 'npm error enoent spawn some-binary ENOENT'],
    ['a server that logs its own fatal line', 'listening\nFatal: PORT must be a number', 'Fatal: PORT must be a number'],
    ['a Python traceback', 'Traceback (most recent call last):\n  File "server.py", line 3, in <module>\nValueError: bad config', 'ValueError: bad config'],
  ])('finds the reason in %s', (_, text, expected) => {
    expect(informativeLine(lines(text))).toBe(expected);
  });

  it('never answers with the boilerplate the last line used to be', () => {
    expect(informativeLine(lines(NODE_THROW))).not.toMatch(/^Node\.js v/);
    expect(informativeLine(lines(NPM_404))).not.toMatch(/complete log/);
  });

  it('falls back to the last line when every line is noise, and says nothing for no output', () => {
    expect(informativeLine(['', 'Node.js v20.20.2'])).toBe('Node.js v20.20.2');
    expect(informativeLine([])).toBeUndefined();
  });

  it('always answers with one of the lines it was given (trimmed)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 30 }), (given) => {
        expect(given.map((l) => l.trim())).toContain(informativeLine(given));
      }),
    );
  });
});

describe('StderrTail', () => {
  it('keeps the last lines only, each cut to a bounded length', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: TAIL_LINE_CHARS * 2 }), { maxLength: TAIL_LINES * 3 }), (written) => {
        const tail = new StderrTail();
        for (const line of written) tail.push(line);
        expect(tail.all.length).toBe(Math.min(written.length, TAIL_LINES));
        for (const line of tail.all) expect(line.length).toBeLessThanOrEqual(TAIL_LINE_CHARS + 1);
        const kept = written.slice(-TAIL_LINES);
        tail.all.forEach((line, i) => {
          expect(kept[i]!.startsWith(line.replace(/…$/, ''))).toBe(true);
        });
      }),
    );
  });

  it('finds the thrown error above a long stack (a cause chain)', () => {
    const tail = new StderrTail();
    const frames = Array.from({ length: TAIL_LINES - 5 }, (_, i) => `    at frame${i} (file:///srv/server.mjs:${i}:1)`);
    for (const line of ['Error: upstream refused the key', ...frames, '', 'Node.js v20.20.2']) tail.push(line);
    expect(tail.reason()).toBe('Error: upstream refused the key');
  });
});
