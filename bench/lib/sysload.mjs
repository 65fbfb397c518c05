// What else the machine was doing while a figure was taken: the 1-minute load average and, over
// a window, how busy the machine's cores were and how much time the hypervisor stole. Also the
// optional busy-loop "burners" (--burn N) that load the machine on purpose, to measure how much a
// figure moves with load.

import { readFileSync } from 'node:fs';
import os from 'node:os';
import { start } from './procs.mjs';

/** The 1-minute load average now. */
export function load1() {
  return os.loadavg()[0];
}

/** Cumulative CPU times of the whole machine (jiffies) from /proc/stat, or undefined off Linux. */
export function machineTimes() {
  try {
    const line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0];
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq;
    return { busy, idle: idle + iowait, steal, total: busy + idle + iowait + steal };
  } catch {
    return undefined;
  }
}

/**
 * A window of machine activity: call end() when the measurement ends. Returns the load average at
 * the start and the end, the cores' busy share (of all cores, every process, ours included) and
 * the stolen share over the window.
 */
export function machineWindow() {
  const a = machineTimes();
  const loadStart = load1();
  return {
    end() {
      const b = machineTimes();
      const out = { load1: (loadStart + load1()) / 2 };
      if (a && b && b.total > a.total) {
        const total = b.total - a.total;
        out.busyPct = (100 * (b.busy - a.busy)) / total;
        out.stealPct = (100 * (b.steal - a.steal)) / total;
      }
      return out;
    },
  };
}

/** Starts n busy-loop processes (tracked like every child); stop them with stopBurners(). */
export function startBurners(n) {
  return Array.from({ length: n }, (_, i) => start(process.execPath, ['-e', 'for (;;) {}'], { label: `burner-${i}`, stdio: 'ignore' }));
}

export async function stopBurners(burners) {
  await Promise.all(burners.map((b) => b.stop(200)));
}
