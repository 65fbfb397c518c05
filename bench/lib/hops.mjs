// Where a call's time goes at concurrency 1, seen from the kernel: the process in the middle's read
// and write system calls, timestamped by tracepoints (perf record -e syscalls:…; no ptrace, so the
// process runs at full speed, unlike under strace). Between a read returning a message and the
// write that passes it on is that process's own time for the hop ("request hop": client → server,
// "response hop": server → client); between a write and the next read is everything outside it
// (the peer's work and two pipe crossings, "server leg" and "client leg").

import { spawn, spawnSync } from 'node:child_process';

export const HOP_EVENTS = ['syscalls:sys_exit_read', 'syscalls:sys_enter_write', 'syscalls:sys_enter_writev'];

/** True when perf can record the syscall tracepoints here (root or perf_event_paranoid allowing it). */
export function canTraceSyscalls() {
  const r = spawnSync('perf', ['record', '-q', '-e', HOP_EVENTS[0], '-o', '/dev/null', '--', 'true'], { encoding: 'utf8' });
  return r.status === 0 ? { ok: true } : { ok: false, reason: r.error ? `no perf binary (${r.error.code})` : (r.stderr || '').trim().split('\n').slice(-1)[0] };
}

/** Starts recording `pid`'s read/write system calls into `file`; stop() ends it and resolves once perf wrote the file. */
export function traceSyscalls(pid, file) {
  const child = spawn('perf', ['record', '-q', '-e', HOP_EVENTS.join(','), '-p', String(pid), '-o', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 || signal === 'SIGINT' ? resolve() : reject(new Error(`perf record exited ${code}: ${err.trim().slice(-300)}`))));
  });
  return {
    stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** The `perf script` text of a recording. */
export function syscallScript(file) {
  const r = spawnSync('perf', ['script', '-i', file, '-F', 'time,event,trace'], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  if (r.status !== 0) throw new Error(`perf script failed: ${r.stderr.trim().slice(-300)}`);
  return r.stdout;
}

/**
 * The events of a `perf script -F time,event,trace` text: reads that returned data, and writes
 * with their fd. Times in µs.
 */
export function parseSyscalls(text) {
  const events = [];
  for (const line of text.split('\n')) {
    const time = /(\d+\.\d+):/.exec(line);
    if (!time) continue;
    const t = Number(time[1]) * 1e6;
    if (line.includes('sys_exit_read')) {
      const ret = /sys_exit_read:\s*(0x[0-9a-f]+)/.exec(line);
      // A read that returned nothing (end of input) or an error (EAGAIN: negative, as a huge hex) moves nothing.
      const n = ret ? BigInt(ret[1]) : 0n;
      if (n > 0n && n < 2n ** 31n) events.push({ t, op: 'read' });
    } else if (line.includes('sys_enter_write')) {
      const fd = /fd: 0x([0-9a-f]+)/.exec(line);
      if (fd) events.push({ t, op: 'write', fd: parseInt(fd[1], 16) });
    }
  }
  return events;
}

/**
 * The hops and legs of a sequence of events, for a process whose client is on fd `clientFd`
 * (stdout, 1) and whose server is on any other fd. Only adjacent pairs count: a read followed by
 * another read (a message in two pieces) starts its hop at the second.
 */
export function hopsOf(events, clientFd = 1) {
  const out = { request: [], response: [], serverLeg: [], clientLeg: [] };
  for (let i = 0; i + 1 < events.length; i++) {
    const a = events[i];
    const b = events[i + 1];
    if (a.op === 'read' && b.op === 'write') (b.fd === clientFd ? out.response : out.request).push(b.t - a.t);
    else if (a.op === 'write' && b.op === 'read') (a.fd === clientFd ? out.clientLeg : out.serverLeg).push(b.t - a.t);
  }
  return out;
}
