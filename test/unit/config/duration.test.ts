import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDuration, parseSize } from '../../../src/config/duration.js';
import { parse } from './helpers.js';

describe('parseDuration', () => {
  it.each([
    [500, 500],
    [1.2, 2],
    ['500ms', 500],
    ['60s', 60_000],
    ['1.5s', 1500],
    ['.5s', 500],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['10 s', 10_000],
    ['0.5ms', 1],
    ['0s', 0],
  ])('%s → %s ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each(['60', '1d', 's', '-1s', '1.s', ' 1s', '1s ', '1S', '1 h m', '', 'NaN', 'Infinity ms'])('rejects %j', (input) => {
    expect(parseDuration(input)).toBeUndefined();
  });

  it('rejects non-finite numbers', () => {
    expect(parseDuration(Number.NaN)).toBeUndefined();
    expect(parseDuration(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('agrees between units', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (n) => {
        expect(parseDuration(`${n}s`)).toBe(n * 1000);
        expect(parseDuration(`${n}m`)).toBe(n * 60_000);
        expect(parseDuration(`${n * 60}m`)).toBe(parseDuration(`${n}h`));
      }),
    );
  });
});

describe('parseSize', () => {
  it.each([
    [1024, 1024],
    ['10B', 10],
    ['1KB', 1000],
    ['1kb', 1000],
    ['1KiB', 1024],
    ['512KiB', 512 * 1024],
    ['1MB', 1_000_000],
    ['16MiB', 16 * 1024 * 1024],
    ['16mib', 16 * 1024 * 1024],
    ['16 MiB', 16 * 1024 * 1024],
    ['1.5KiB', 1536],
    ['1.0001KB', 1000],
  ])('%s → %s bytes', (input, bytes) => {
    expect(parseSize(input)).toBe(bytes);
  });

  it.each(['16', '16GB', '16GiB', 'MiB', '-1KB', '1 2MB', '16Mib '])('rejects %j', (input) => {
    expect(parseSize(input)).toBeUndefined();
  });
});

describe('in a config', () => {
  it('turns timeouts into timeoutMs', () => {
    const config = parse(`
servers:
  - { name: a, command: x, timeout: 250 }
  - { name: b, command: x, timeout: 1.5s }
  - { name: c, command: x, timeout: 1h }
`);
    expect(config.servers.map((s) => s.timeoutMs)).toEqual([250, 1500, 3_600_000]);
  });

  it('turns sizes into bytes', () => {
    expect(parse('limits: { maxMessageBytes: 1MB }').limits.maxMessageBytes).toBe(1_000_000);
    expect(parse('limits: { maxMessageBytes: 1048576 }').limits.maxMessageBytes).toBe(1_048_576);
    expect(parse('limits: { maxMessageBytes: 1024MiB }').limits.maxMessageBytes).toBe(2 ** 30);
  });
});
