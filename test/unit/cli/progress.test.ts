// A line per server while the gateway connects: plain "x: connecting" lines, then one line per
// server as it settles, off a terminal; spinners that turn into those lines on one.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectProgress } from '../../../src/cli/progress.js';
import { Terminal } from '../../../src/cli/terminal.js';
import type { ServerSummary } from '../../../src/outbound/summary.js';

const base = { transport: 'stdio', tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 };
const connecting = (name: string): ServerSummary => ({ ...base, name, state: 'connecting' });
const ready = (name: string, tools = 2): ServerSummary => ({ ...base, name, state: 'ready', protocolVersion: '2025-11-25', tools });
const failed = (name: string): ServerSummary => ({ ...base, name, state: 'failed', problem: 'server process exited with code 1', detail: 'stderr: Error: boom' });
const disabled = (name: string): ServerSummary => ({ ...base, name, state: 'disabled', problem: 'disabled in the config' });

function setup(tty: boolean) {
  const live: string[][] = [];
  const lines: string[] = [];
  const terminal = new Terminal({ write: () => {}, isTTY: tty }, tty);
  vi.spyOn(terminal, 'setLive').mockImplementation((l) => void live.push(l));
  const out: { text: string; down: boolean }[] = [];
  const progress = new ConnectProgress(terminal, { done: (text, down) => out.push({ text, down }), note: (text) => lines.push(text) });
  return { progress, live, lines, out };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ConnectProgress off a terminal', () => {
  it('says which servers are connecting, then one line each as they settle, in the order they do', () => {
    const { progress, lines, out } = setup(false);
    progress.start([connecting('a'), connecting('b'), disabled('c')]);
    expect(lines).toEqual(['a: connecting', 'b: connecting']);
    expect(out).toEqual([{ text: 'c: disabled — disabled in the config', down: false }]);
    progress.update([connecting('a'), failed('b'), disabled('c')]);
    progress.update([ready('a'), failed('b'), disabled('c')]);
    progress.update([ready('a'), failed('b'), disabled('c')]);
    expect(out.slice(1)).toEqual([
      { text: 'b: failed — server process exited with code 1 (stderr: Error: boom)', down: true },
      { text: 'a: connected (stdio, 2025-11-25) — 2 tools, 0 prompts, 0 resources', down: false },
    ]);
    expect(progress.waiting).toEqual([]);
  });

  it('still reports a server that settles after the spinners were stopped (a late server under serve)', () => {
    const { progress, out } = setup(false);
    progress.start([connecting('slow')]);
    progress.stopSpinning();
    expect(progress.waiting).toEqual(['slow']);
    progress.update([ready('slow')]);
    expect(out.map((o) => o.text)).toEqual(['slow: connected (stdio, 2025-11-25) — 2 tools, 0 prompts, 0 resources']);
  });
});

describe('ConnectProgress on a terminal', () => {
  it('spins a live line per connecting server, and clears it when the server settles', () => {
    const { progress, live, lines } = setup(true);
    progress.start([connecting('a'), connecting('b')]);
    expect(lines).toEqual([]);
    expect(live.at(-1)).toEqual(['⠋ a: connecting', '⠋ b: connecting']);
    vi.advanceTimersByTime(80);
    expect(live.at(-1)).toEqual(['⠙ a: connecting', '⠙ b: connecting']);
    progress.update([ready('a'), connecting('b')]);
    expect(live.at(-1)).toEqual(['⠙ b: connecting']);
    progress.update([ready('a'), ready('b')]);
    expect(live.at(-1)).toEqual([]);
    const drawn = live.length;
    vi.advanceTimersByTime(1000);
    expect(live.length).toBe(drawn); // the spinner timer is gone
  });

  it('stopSpinning takes the block off at once', () => {
    const { progress, live } = setup(true);
    progress.start([connecting('a')]);
    progress.stopSpinning();
    expect(live.at(-1)).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(live.at(-1)).toEqual([]);
  });
});
