// The bundle unpacker (yauzl underneath): what a real archive holds comes out as it was, and an
// archive that would write outside its folder, hold a link or an encrypted entry, hold too much or
// too many, or lie about its sizes is refused. The archives are built here, byte by byte, so each
// lie is exact.

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readZipEntry, unzipInto } from '../../../src/cli/zip.js';

interface Entry {
  name: string;
  data?: string;
  deflate?: boolean;
  mode?: number;
  /** The general purpose flags (bit 0: encrypted). */
  flags?: number;
  /** The size the central directory claims (default: the real one). */
  claimedSize?: number;
}

/** A zip archive: local headers and data, then the central directory and its end record (zip64 ones too, with `zip64`). */
function zip(entries: Entry[], options: { zip64?: boolean } = {}): Buffer {
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
    local.writeUInt16LE(e.flags ?? 0, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(raw), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.flags ?? 0, 8);
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
  const tail: Buffer[] = [];
  if (options.zip64) {
    // The zip64 end record (its counts and offset are the real ones) and the locator pointing at it.
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(0x031e, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(entries.length), 24);
    record.writeBigUInt64LE(BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : directory.length, 12);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 16);
  return Buffer.concat([...locals, directory, ...tail, end]);
}

let dir: string;
const fresh = () => (dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-zip-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bundle = () =>
  zip([{ name: 'server/' }, { name: 'server/index.js', data: 'x'.repeat(1000), deflate: true }, { name: 'bin/run', data: '#!/bin/sh\n', mode: 0o100755 }, { name: 'manifest.json', data: '{}' }]);

describe('unzipInto', () => {
  it('writes stored and deflated files, folders, and keeps the execute bit', async () => {
    fresh();
    const written = await unzipInto(bundle(), dir);
    expect(written.map((f) => path.relative(dir, f)).sort()).toEqual(['bin/run', 'manifest.json', 'server/index.js']);
    expect(readFileSync(path.join(dir, 'server/index.js'), 'utf8')).toBe('x'.repeat(1000));
    expect(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe('{}');
    expect(statSync(path.join(dir, 'bin/run')).mode & 0o100).toBe(0o100);
    expect(statSync(path.join(dir, 'manifest.json')).mode & 0o111).toBe(0);
  });

  it('reads a zip64 archive, within the same bounds', async () => {
    fresh();
    const archive = zip([{ name: 'manifest.json', data: '{"zip64":true}', deflate: true }], { zip64: true });
    await unzipInto(archive, dir);
    expect(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe('{"zip64":true}');
    await expect(unzipInto(archive, fresh(), { maxTotalBytes: 5 })).rejects.toThrow(/more than 5 bytes/);
  });

  it.each([['../escape.js'], ['server/../../escape.js'], ['/etc/escape'], ['C:/escape'], ['server\\..\\escape'], ['..\\escape.js']])('refuses the path %s', async (name) => {
    fresh();
    await expect(unzipInto(zip([{ name, data: 'evil' }]), dir)).rejects.toThrow(/unsafe path/);
    expect(existsSync(path.join(dir, '..', 'escape.js'))).toBe(false);
  });

  it('refuses a symbolic link', async () => {
    fresh();
    await expect(unzipInto(zip([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }]), dir)).rejects.toThrow(/link: symbolic links are not allowed/);
    expect(existsSync(path.join(dir, 'link'))).toBe(false);
  });

  it('refuses an encrypted entry', async () => {
    fresh();
    await expect(unzipInto(zip([{ name: 'secret.js', data: 'x', deflate: true, flags: 1 }]), dir)).rejects.toThrow(/secret\.js: encrypted entries are not supported/);
  });

  it('refuses an entry that inflates past the size the archive declares (a zip bomb)', async () => {
    fresh();
    await expect(unzipInto(zip([{ name: 'big', data: 'a'.repeat(100_000), deflate: true, claimedSize: 10 }]), dir)).rejects.toThrow(/unpacks to other than the size the archive declares/);
  });

  it('refuses an archive whose declared sizes pass the bound, before inflating anything', async () => {
    fresh();
    const archive = zip([
      { name: 'a', data: 'x'.repeat(600) },
      { name: 'b', data: 'x'.repeat(600) },
    ]);
    await expect(unzipInto(archive, dir, { maxTotalBytes: 1000 })).rejects.toThrow(/more than 1000 bytes \(by the sizes it declares\)/);
    expect(existsSync(path.join(dir, 'b'))).toBe(false);
  });

  it('refuses an archive with more entries than the bound', async () => {
    fresh();
    await expect(unzipInto(bundle(), dir, { maxEntries: 3 })).rejects.toThrow(/holds 4 entries, more than 3/);
    expect(existsSync(path.join(dir, 'server'))).toBe(false);
  });

  it('refuses a name given twice rather than overwrite the first', async () => {
    fresh();
    await expect(
      unzipInto(
        zip([
          { name: 'manifest.json', data: '{}' },
          { name: 'manifest.json', data: '{"evil":1}' },
        ]),
        dir,
      ),
    ).rejects.toThrow(/the archive names manifest\.json twice/);
    expect(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe('{}');
    await expect(
      readZipEntry(
        zip([
          { name: 'manifest.json', data: '{}' },
          { name: 'manifest.json', data: '{"evil":1}' },
        ]),
        'manifest.json',
      ),
    ).rejects.toThrow(/twice/);
  });

  it("says when the folder cannot take a file, as the file system's failure rather than the archive's", async () => {
    fresh();
    await expect(
      unzipInto(
        zip([
          { name: 'server', data: 'a file' },
          { name: 'server/index.js', data: 'x' },
        ]),
        dir,
      ),
    ).rejects.toThrow(/cannot write the bundle's files: .*ENOTDIR|cannot write the bundle's files: .*EEXIST/);
  });

  it('says when the bytes are not a zip at all', async () => {
    fresh();
    await expect(unzipInto(Buffer.from('<html>not found</html>'), dir)).rejects.toThrow(/not a zip archive/);
  });

  it('refuses a damaged archive: a broken central directory, a broken local header, truncated data', async () => {
    fresh();
    const good = bundle();
    const central = good.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const brokenCentral = Buffer.from(good);
    brokenCentral.writeUInt32LE(0xdeadbeef, central);
    await expect(unzipInto(brokenCentral, dir)).rejects.toThrow(/the archive is damaged: invalid central directory file header signature/);

    const brokenLocal = Buffer.from(good);
    brokenLocal.writeUInt32LE(0xdeadbeef, good.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 1)); // server/index.js's
    await expect(unzipInto(brokenLocal, fresh())).rejects.toThrow(/the archive is damaged: invalid local file header signature/);

    const one = zip([{ name: 'manifest.json', data: 'y'.repeat(200) }]);
    const truncated = Buffer.concat([one.subarray(0, 100), one.subarray(one.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])))]);
    // The central directory still says where the data is, and how long: it points past the bytes there are.
    await expect(unzipInto(truncated, fresh())).rejects.toThrow(/the archive is damaged/);
  });
});

describe('readZipEntry', () => {
  it("reads one file's bytes and writes nothing", async () => {
    expect((await readZipEntry(bundle(), 'server/index.js'))?.toString()).toBe('x'.repeat(1000));
    expect(await readZipEntry(bundle(), 'absent.json')).toBeUndefined();
  });

  it('refuses what unzipInto would, even when the file asked for is fine', async () => {
    await expect(
      readZipEntry(
        zip([
          { name: 'manifest.json', data: '{}' },
          { name: '../escape', data: 'x' },
        ]),
        'manifest.json',
      ),
    ).rejects.toThrow(/unsafe path/);
    await expect(
      readZipEntry(
        zip([
          { name: 'manifest.json', data: '{}' },
          { name: 'link', mode: 0o120777 },
        ]),
        'manifest.json',
      ),
    ).rejects.toThrow(/symbolic links/);
  });
});
