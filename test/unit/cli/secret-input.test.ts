// How `users connect` reads secrets off a terminal (a script's stdin): NAME=value lines, every
// secret the server takes and no other, so a typo never stores a credential that fills nothing.
// Errors name lines and names, never a value. On a terminal: one prompt per secret, nothing echoed.

import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseSecretLines, readSecrets } from '../../../src/cli/secret-input.js';

const specs = [{ name: 'TOKEN', description: 'your token' }, { name: 'ORG' }];

describe('secrets from stdin', () => {
  it('takes NAME=value lines, blank lines and CRLF included; a value may hold "="', () => {
    expect(parseSecretLines('TOKEN=a=b\r\n\nORG=acme\n', specs)).toEqual({ TOKEN: 'a=b', ORG: 'acme' });
  });

  it.each([
    ['TOKEN=x\nTOKENN=y\n', /line 2 names "TOKENN"/],
    ['TOKEN=x\nTOKEN=y\n', /TOKEN twice/],
    ['just-a-secret\n', /line 1 is not NAME=value/],
  ])('refuses %j without echoing the value', (text, why) => {
    expect(() => parseSecretLines(text, specs)).toThrow(why);
    try {
      parseSecretLines(text, specs);
    } catch (err) {
      expect((err as Error).message).not.toMatch(/just-a-secret|=x|=y/);
    }
  });

  it('needs every secret, non-empty', async () => {
    await expect(readSecrets(specs, Readable.from(['TOKEN=x\n']), () => {})).rejects.toThrow(/no value for ORG/);
    await expect(readSecrets(specs, Readable.from(['TOKEN=\nORG=a\n']), () => {})).rejects.toThrow(/no value for TOKEN/);
    await expect(readSecrets(specs, Readable.from(['TOKEN=x\n', 'ORG=a\n']), () => {})).resolves.toEqual({ TOKEN: 'x', ORG: 'a' });
  });
});

/** A terminal as readSecrets sees one: a stream with isTTY and raw mode (whose switches are recorded). */
function fakeTerminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, raw: [] as boolean[] });
  return Object.assign(stream, { setRawMode: (on: boolean) => stream.raw.push(on) });
}

describe('secrets typed on a terminal', () => {
  it('prompts with each description, echoes nothing, takes backspace, and leaves raw mode', async () => {
    const tty = fakeTerminal();
    let shown = '';
    const reading = readSecrets(specs, tty, (t) => (shown += t));
    tty.write('s3cx\x7fret\r');
    await new Promise((r) => setImmediate(r));
    tty.write('acme\n');
    expect(await reading).toEqual({ TOKEN: 's3cret', ORG: 'acme' });
    expect(shown).toBe('  TOKEN (your token): \n  ORG: \n');
    expect(tty.raw).toEqual([true, false, true, false]);
  });

  it('Ctrl-C gives up, raw mode off again', async () => {
    const tty = fakeTerminal();
    const reading = readSecrets(specs, tty, () => {});
    tty.write('abc\x03');
    await expect(reading).rejects.toThrow(/interrupted/);
    expect(tty.raw).toEqual([true, false]);
  });
});
