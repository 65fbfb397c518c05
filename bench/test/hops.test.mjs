// bench/hops.mjs's reading of perf's syscall tracepoints: which reads moved data, which fd each
// write went to, and the hops (read → write) and legs (write → read) of the process in the middle.

import { describe, expect, it } from 'vitest';
import { hopsOf, parseSyscalls } from '../lib/hops.mjs';

// As `perf script -F time,event,trace` prints them (a client request of 205 bytes, its write to
// the server on fd 18, a read that found nothing (EAGAIN), the answer, its write to stdout).
const text = `
  577.616127:    syscalls:sys_exit_read: 0xcd
  577.616140:    syscalls:sys_exit_read: 0xfffffffffffffff5
  577.616327:  syscalls:sys_enter_write: fd: 0x00000012, buf: 0x7ffcb2e67e40, count: 0x000000c7
  577.616571:    syscalls:sys_exit_read: 0xb1
  577.616641:  syscalls:sys_enter_write: fd: 0x00000001, buf: 0x7ffcb2e67de0, count: 0x000000b1
  577.616794:    syscalls:sys_exit_read: 0xcd
  577.616826: syscalls:sys_enter_writev: fd: 0x00000012, vec: 0x7ffcb2e67e40, vlen: 0x00000002
  577.616900:    syscalls:sys_exit_read: 0x0
`;

describe('syscall hops', () => {
  it('keeps reads that returned data and writes with their fd, in µs', () => {
    const events = parseSyscalls(text);
    expect(events.map((e) => [e.op, e.fd])).toEqual([
      ['read', undefined],
      ['write', 18],
      ['read', undefined],
      ['write', 1],
      ['read', undefined],
      ['write', 18],
    ]);
    expect(events[1].t - events[0].t).toBeCloseTo(200, 3);
  });

  it('times each hop from the read that returned the message to the write that passes it on, and each leg back', () => {
    const h = hopsOf(parseSyscalls(text));
    expect(h.request.map(Math.round)).toEqual([200, 32]);
    expect(h.response.map(Math.round)).toEqual([70]);
    expect(h.serverLeg.map(Math.round)).toEqual([244]);
    expect(h.clientLeg.map(Math.round)).toEqual([153]);
  });
});
