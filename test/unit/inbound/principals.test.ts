// Who a request is from: an authenticated principal as given, anyone else by address, with every
// spelling of one IPv6 /64 (compressed, zero-padded, upper case, with a zone) the same principal.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteBudget } from '../../../src/inbound/budget.js';
import { Principals, anonymousKey } from '../../../src/inbound/principals.js';

const SHARES = { sessions: 2, streams: 2, connections: 2, callsInFlight: 2, bytesInFlight: 100, unauthenticatedConnections: 2 };

describe('anonymousKey', () => {
  it('is the IPv4 address, also when node reports it IPv4-mapped', () => {
    expect(anonymousKey('192.0.2.7')).toBe('anonymous:192.0.2.7');
    expect(anonymousKey('::ffff:192.0.2.7')).toBe('anonymous:192.0.2.7');
    expect(anonymousKey('::FFFF:192.0.2.7')).toBe('anonymous:192.0.2.7');
  });

  it('is the /64 of an IPv6 address: a host has a whole /64 to pick from', () => {
    const key = anonymousKey('2001:db8:1:2::9');
    expect(key).toBe('anonymous:2001:db8:1:2::/64');
    expect(anonymousKey('2001:0DB8:0001:0002:ffff:0:0:1')).toBe(key);
    expect(anonymousKey('2001:db8:1:2:3:4:5:6%eth0')).toBe(key);
    expect(anonymousKey('2001:db8:1:3::9')).not.toBe(key);
    expect(anonymousKey('::1')).toBe('anonymous:0:0:0:0::/64');
    expect(anonymousKey('fe80::1%lo')).toBe('anonymous:fe80:0:0:0::/64');
  });

  it('names an unknown address (a socket already gone) rather than failing', () => {
    expect(anonymousKey(undefined)).toBe('anonymous:unknown');
    expect(anonymousKey('')).toBe('anonymous:unknown');
  });

  const group = fc.integer({ min: 0, max: 0xffff });
  const address = fc.array(group, { minLength: 8, maxLength: 8 });
  /** One spelling of the address: padded or not, upper or lower case, one run of zeros as `::`. */
  const spelled = (groups: number[], pad: boolean, upper: boolean, at: number, len: number): string => {
    const text = groups.map((g) => g.toString(16).padStart(pad ? 4 : 1, '0'));
    const cased = text.map((t) => (upper ? t.toUpperCase() : t));
    const zeros = len > 0 && groups.slice(at, at + len).every((g) => g === 0) && at + len <= 8;
    if (!zeros) return cased.join(':');
    return `${cased.slice(0, at).join(':')}::${cased.slice(at + len).join(':')}`;
  };

  it('gives every spelling of an address the key of its first 64 bits, and only those', () => {
    fc.assert(
      fc.property(address, address, fc.boolean(), fc.boolean(), fc.nat(7), fc.nat(8), (a, b, pad, upper, at, len) => {
        // Zero out a run so that `::` has something to stand for.
        const z = a.map((g, i) => (i >= at && i < at + len ? 0 : g));
        const plain = anonymousKey(spelled(z, false, false, 0, 0));
        expect(anonymousKey(spelled(z, pad, upper, at, len))).toBe(plain);
        const sameHalf = [...z.slice(0, 4), ...b.slice(4)];
        expect(anonymousKey(spelled(sameHalf, pad, upper, 0, 0))).toBe(plain);
        if (b.slice(0, 4).join() !== z.slice(0, 4).join()) expect(anonymousKey(spelled(b, false, false, 0, 0))).not.toBe(plain);
      }),
    );
  });
});

describe('Principals', () => {
  it('keeps one holding per principal, authenticated ones by name and the rest by address', () => {
    const p = new Principals(SHARES);
    const alice = p.of('alice', '127.0.0.1');
    expect(p.of('alice', '10.0.0.1')).toBe(alice);
    expect(alice.anonymous).toBe(false);
    const anon = p.of(undefined, '127.0.0.1');
    expect(anon.anonymous).toBe(true);
    expect(anon).not.toBe(alice);
    expect(p.of(undefined, '::ffff:127.0.0.1')).toBe(anon);
  });

  it('forgets a holding only once it holds nothing', () => {
    const p = new Principals(SHARES);
    const h = p.of('alice', undefined);
    h.calls++;
    p.release(h);
    expect(p.of('alice', undefined)).toBe(h);
    h.calls--;
    p.release(h);
    expect(p.size).toBe(0);
    expect(p.of('alice', undefined)).not.toBe(h);
  });

  it("gives each principal a budget between its sessions' and the gateway's, kept while it holds bytes", () => {
    const gateway = new ByteBudget(150, 'the gateway', 'limits.totalBytesInFlight', 'gateway');
    const p = new Principals(SHARES, gateway);
    const alice = p.of('alice', undefined);
    const session = new ByteBudget(80, 'this session', 'limits.sessionBytesInFlight', 'session', p.budgetOf(alice));
    const other = new ByteBudget(80, 'this session', 'limits.sessionBytesInFlight', 'session', p.budgetOf(alice));
    expect(session.take(80)).toBeUndefined();
    expect(other.take(30)?.key).toBe('limits.perPrincipal.bytesInFlight');
    expect(p.budgetOf(p.of('bob', undefined)).take(60)).toBeUndefined(); // the gateway has 70 left
    expect(gateway.used).toBe(140);
    expect(p.of('alice', undefined)).toBe(alice); // holds bytes: not forgotten
    session.give(80);
    expect(gateway.used).toBe(60);
    expect(p.size).toBe(1); // alice's last byte given back: forgotten; bob still holds his
  });
});

describe('a principal’s calls in flight, as a code-mode run’s nested calls take them', () => {
  it('are its requests’ share: taken while there is room, given back, the holding forgotten once empty', () => {
    const principals = new Principals(SHARES);
    const h = principals.of('alice', undefined);
    const share = principals.callShare(h);
    expect(principals.callShare(h)).toBe(share);
    expect(share.limit).toBe(2);
    // One request in flight (the run itself), one nested call fits, the next does not.
    h.calls = 1;
    expect(share.take()).toBe(true);
    expect(share.take()).toBe(false);
    expect(h.calls).toBe(2);
    share.give();
    h.calls--;
    share.take();
    share.give();
    expect(h.calls).toBe(0);
    expect(principals.size).toBe(0);
  });
});
