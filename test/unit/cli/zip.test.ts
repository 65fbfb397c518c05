// The zip reader that unpacks mcpb bundles: what a real archive holds comes out as it was, and
// an archive that would write outside its folder, hold a link, or lie about its sizes is refused
// before anything lands outside. The archives are built here, byte by byte, so each lie is exact.

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { unzipInto } from '../../../src/cli/zip.js';

interface Entry {
  name: string;
  data?: string;
  deflate?: boolean;
  mode?: number;
  /** The size the central directory claims (default: the real one). */
  claimedSize?: number;
}

/** A zip archive: local headers and data, then the central directory and its end record. */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data ?? '');
    const body = e.deflate ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(raw), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc32(raw), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.claimedSize ?? raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

let dir: string;
const fresh = () => (dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-zip-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('unzipInto', () => {
  it('writes stored and deflated files, folders, and keeps the execute bit', () => {
    fresh();
    unzipInto(
      zip([{ name: 'server/' }, { name: 'server/index.js', data: 'x'.repeat(1000), deflate: true }, { name: 'bin/run', data: '#!/bin/sh\n', mode: 0o100755 }, { name: 'manifest.json', data: '{}' }]),
      dir,
    );
    expect(readFileSync(path.join(dir, 'server/index.js'), 'utf8')).toBe('x'.repeat(1000));
    expect(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe('{}');
    expect(statSync(path.join(dir, 'bin/run')).mode & 0o100).toBe(0o100);
    expect(statSync(path.join(dir, 'manifest.json')).mode & 0o111).toBe(0);
  });

  it.each([['../escape.js'], ['server/../../escape.js'], ['/etc/escape'], ['server\\..\\escape']])('refuses the path %s', (name) => {
    fresh();
    expect(() => unzipInto(zip([{ name, data: 'evil' }]), dir)).toThrow(/unsafe path/);
    expect(existsSync(path.join(dir, '..', 'escape.js'))).toBe(false);
  });

  it('refuses a symbolic link', () => {
    fresh();
    expect(() => unzipInto(zip([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }]), dir)).toThrow(/symbolic links/);
  });

  it('refuses an entry that inflates past the size the archive claims (a zip bomb)', () => {
    fresh();
    expect(() => unzipInto(zip([{ name: 'big', data: 'a'.repeat(100_000), deflate: true, claimedSize: 10 }]), dir)).toThrow();
    expect(existsSync(path.join(dir, 'big'))).toBe(false);
  });

  it('refuses an archive larger in all than its bound', () => {
    fresh();
    expect(() =>
      unzipInto(
        zip([
          { name: 'a', data: 'x'.repeat(600) },
          { name: 'b', data: 'x'.repeat(600) },
        ]),
        dir,
        1000,
      ),
    ).toThrow(/more than 1000 bytes/);
  });

  it('says when the bytes are not a zip at all', () => {
    fresh();
    expect(() => unzipInto(Buffer.from('<html>not found</html>'), dir)).toThrow(/not a zip archive/);
  });
});
