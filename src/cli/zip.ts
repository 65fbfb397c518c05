// A small zip reader for mcpb bundles (which are zip archives): stored and deflated entries, read
// from the central directory, written under one folder. No zip package is a dependency, and this
// is all a bundle needs. It refuses what would escape that folder (absolute paths, `..`, links),
// zip64 and encrypted entries, and an archive that would unpack to more than a bound.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

interface ZipEntry {
  name: string;
  /** Unix mode from the central directory (0 when the archive was not made on unix). */
  mode: number;
  size: number;
  /** The entry's bytes, inflated and checked against the size the archive gives. */
  read: () => Buffer;
}

/** The archive's entries, from its central directory. */
function* entries(zip: Buffer): Generator<ZipEntry> {
  const end = findEnd(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ZipError('zip64 archives are not supported');
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new ZipError('the archive is damaged (central directory)');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 1) throw new ZipError(`${name}: encrypted entries are not supported`);
    const read = (): Buffer => {
      if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) throw new ZipError(`${name}: the archive is damaged (local header)`);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(start, start + compressed);
      if (raw.length !== compressed) throw new ZipError(`${name}: the archive is truncated`);
      let data: Buffer;
      if (method === 0) data = Buffer.from(raw);
      else if (method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
      else throw new ZipError(`${name}: compression method ${method} is not supported (only stored and deflate)`);
      if (data.length !== size) throw new ZipError(`${name}: unpacked to ${data.length} bytes, the archive says ${size}`);
      return data;
    };
    yield { name, mode, size, read };
  }
}

/** One file's bytes, read in memory (`add --dry-run` reads a bundle's manifest this way). */
export function readZipEntry(zip: Buffer, name: string): Buffer | undefined {
  for (const entry of entries(zip)) if (entry.name === name) return entry.read();
  return undefined;
}

/** Unpacks `zip` into `dir` (which must exist); returns the files written. */
export function unzipInto(zip: Buffer, dir: string, maxTotalBytes = 512 * 1024 * 1024): string[] {
  const written: string[] = [];
  let total = 0;
  for (const entry of entries(zip)) {
    const { name, mode } = entry;
    if ((mode & 0o170000) === 0o120000) throw new ZipError(`${name}: symbolic links are not allowed in a bundle`);
    const target = safePath(dir, name);
    if (name.endsWith('/')) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    total += entry.size;
    if (total > maxTotalBytes) throw new ZipError(`the archive unpacks to more than ${maxTotalBytes} bytes`);
    const data = entry.read();
    mkdirSync(path.dirname(target), { recursive: true });
    // Keep the owner's execute bit (a binary server's entry point), nothing wider than 0755.
    writeFileSync(target, data, { mode: mode & 0o100 ? 0o755 : 0o644 });
    written.push(target);
  }
  return written;
}

function findEnd(zip: Buffer): number {
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) return i;
  }
  throw new ZipError('not a zip archive (no end of central directory)');
}

/** `dir/name`, or an error when the name would land outside `dir`. */
function safePath(dir: string, name: string): string {
  if (name.includes('\\') || name.includes('\0') || path.posix.isAbsolute(name) || name.split('/').includes('..')) throw new ZipError(`unsafe path in the archive: ${JSON.stringify(name)}`);
  const target = path.resolve(dir, name);
  if (target !== dir && !target.startsWith(dir + path.sep)) throw new ZipError(`unsafe path in the archive: ${JSON.stringify(name)}`);
  return target;
}
