// The live block (spinners) and permanent lines on one terminal: whatever the order of writes,
// the screen shows every permanent line in order with the live block last, and nothing else.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Terminal } from '../../../src/cli/terminal.js';

/** Plays what was written on a tiny terminal that understands \r, \n, ESC[2K and ESC[1A. */
function screen(written: string): string[] {
  const rows = [''];
  let row = 0;
  let col = 0;
  for (let i = 0; i < written.length; ) {
    if (written.startsWith('\x1b[2K', i)) {
      rows[row] = '';
      i += 4;
    } else if (written.startsWith('\x1b[1A', i)) {
      row = Math.max(0, row - 1);
      i += 4;
    } else {
      const c = written[i++]!;
      if (c === '\r') col = 0;
      else if (c === '\n') {
        row++;
        col = 0;
        if (row === rows.length) rows.push('');
      } else {
        rows[row] = rows[row]!.slice(0, col) + c + rows[row]!.slice(col + 1);
        col++;
      }
    }
  }
  // Rows below the cursor that were cleared are blank on a real screen: not lines.
  while (rows.length > 0 && rows.at(-1) === '') rows.pop();
  return rows;
}

function terminal(tty: boolean) {
  let written = '';
  const t = new Terminal({ write: (s: string) => (written += s), isTTY: tty, columns: 100 }, tty);
  return { t, shown: () => screen(written), raw: () => written };
}

describe('Terminal', () => {
  it('keeps the live block below the lines written while it is shown', () => {
    const { t, shown } = terminal(true);
    t.setLive(['⠋ a: connecting', '⠋ b: connecting']);
    t.line('  a │ hello');
    t.setLive(['⠙ b: connecting']);
    t.line('a: connected');
    expect(shown()).toEqual(['  a │ hello', 'a: connected', '⠙ b: connecting']);
    t.setLive([]);
    expect(shown()).toEqual(['  a │ hello', 'a: connected']);
  });

  it('off a terminal, writes plain lines and never a live line or an escape', () => {
    const { t, raw } = terminal(false);
    t.setLive(['⠋ a: connecting']);
    t.line('a: connecting');
    t.line('a: connected');
    expect(raw()).toBe('a: connecting\na: connected\n');
  });

  it('cuts a live line to the width so that it takes one row', () => {
    const { t, shown } = terminal(true);
    t.setLive(['x'.repeat(300)]);
    expect(shown()[0]!.length).toBeLessThan(100);
  });

  it('shows every line in order and the last live block, for any sequence of writes', () => {
    const op = fc.oneof(fc.record({ line: fc.stringMatching(/^[a-z:│][a-z :│]{0,29}$/) }), fc.record({ live: fc.array(fc.stringMatching(/^[a-z ]{1,20}$/), { maxLength: 4 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const { t, shown } = terminal(true);
        const lines: string[] = [];
        let live: string[] = [];
        for (const o of ops) {
          if ('line' in o) {
            t.line(o.line);
            lines.push(o.line);
          } else {
            t.setLive(o.live);
            live = o.live;
          }
        }
        expect(shown()).toEqual([...lines, ...live]);
      }),
    );
  });
});
