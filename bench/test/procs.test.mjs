// Child processes of the harness: a child that exited with nothing left in its process group is
// forgotten at once (its number may soon belong to someone else's process), while one that left
// a process behind in its group is still ended by stopAll.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { start, stopAll, trackedCount } from '../lib/procs.mjs';

const gone = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return true;
  }
};

describe('tracked children', () => {
  it('forgets a child that exited and left nothing in its group', async () => {
    const before = trackedCount();
    const child = start(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    expect(trackedCount()).toBe(before + 1);
    await child.exitPromise;
    expect(trackedCount()).toBe(before);
    await child.stop(); // a no-op: nothing to signal
  });

  it('still ends what an exited child left running in its group', async () => {
    const child = start('sh', ['-c', 'sleep 60 >/dev/null & echo $!; exec true'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.child.stdout.setEncoding('utf8');
    child.child.stdout.on('data', (d) => (out += d));
    await Promise.all([child.exitPromise, new Promise((resolve) => child.child.stdout.on('end', resolve))]);
    const orphan = Number(out.trim());
    expect(orphan).toBeGreaterThan(0);
    expect(gone(orphan)).toBe(false);
    await stopAll();
    expect(gone(orphan)).toBe(true);
  });
});
