// mcpb bundles are zip archives: this unpacks one under a folder, or reads one file of it, through
// yauzl (a reader that has met far more malformed archives than a hand-written one would; the
// bundle path is cold CLI code, so its async streams cost nothing that matters). yauzl reads the
// central directory, refuses absolute paths, `..` and backslashes, and checks every entry's
// inflated bytes against its declared size; on top of that this refuses symbolic links, encrypted
// entries, a name given twice, more entries or more bytes than a bound (by the declared sizes
// before anything is inflated, and again by a running count of the bytes inflated, which yauzl's
// per-entry check keeps within the declared total: the count is there should that check ever let
// more through), and any name that would land outside the folder. Every failure is a ZipError.

import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fromBufferPromise } from 'yauzl';

export class ZipError extends Error {}

export interface ZipLimits {
  /** Bytes the whole archive may unpack to (declared, and inflated). */
  maxTotalBytes: number;
  /** Entries (files and folders) the archive may hold. */
  maxEntries: number;
}

const DEFAULTS: ZipLimits = { maxTotalBytes: 512 * 1024 * 1024, maxEntries: 10_000 };

/** Unpacks `zip` into `dir` (which must exist); returns the files written. */
export async function unzipInto(zip: Buffer, dir: string, limits: Partial<ZipLimits> = {}): Promise<string[]> {
  const written: string[] = [];
  await eachFile(
    zip,
    { ...DEFAULTS, ...limits },
    {
      folder: (name) => void mkdirSync(safePath(dir, name), { recursive: true }),
      file: (name, mode) => {
        const target = safePath(dir, name);
        mkdirSync(path.dirname(target), { recursive: true });
        written.push(target);
        // Keep the owner's execute bit (a binary server's entry point), nothing wider than 0755.
        // 'wx': nothing already there is overwritten (a name given twice is refused before this).
        return createWriteStream(target, { flags: 'wx', mode: mode & 0o100 ? 0o755 : 0o644 });
      },
    },
  );
  return written;
}

/**
 * One file's bytes (`add --dry-run` reads a bundle's manifest this way). The whole archive is
 * walked with the same checks as `unzipInto`, the other files inflated and dropped, so a dry run
 * refuses what an install would.
 */
export async function readZipEntry(zip: Buffer, name: string, limits: Partial<ZipLimits> = {}): Promise<Buffer | undefined> {
  let chunks: Buffer[] | undefined;
  await eachFile(
    zip,
    { ...DEFAULTS, ...limits },
    {
      folder: () => {},
      file: (entryName) => {
        const keep: Buffer[] | undefined = entryName === name ? [] : undefined;
        if (keep) chunks = keep;
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            keep?.push(chunk);
            done();
          },
        });
      },
    },
  );
  return chunks && Buffer.concat(chunks);
}

interface Visitor {
  folder: (name: string) => void;
  /** Where a file's inflated bytes go (they are counted against the bound on the way). */
  file: (name: string, mode: number) => Writable;
}

async function eachFile(zip: Buffer, limits: ZipLimits, visit: Visitor): Promise<void> {
  try {
    // strictFileNames: a backslash is refused as it is, not read as a folder separator.
    const archive = await fromBufferPromise(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, decodeStrings: true });
    if (archive.entryCount > limits.maxEntries) throw new ZipError(`the archive holds ${archive.entryCount} entries, more than ${limits.maxEntries}`);
    let declared = 0;
    let inflated = 0;
    const seen = new Set<string>();
    for await (const entry of archive.eachEntry()) {
      const name = entry.fileName;
      // Twice, the second would overwrite the first (or a dry run read the one an install would not).
      if (seen.has(name)) throw new ZipError(`the archive names ${name} twice`);
      seen.add(name);
      const mode = entry.externalFileAttributes >>> 16;
      if ((mode & 0o170000) === 0o120000) throw new ZipError(`${name}: symbolic links are not allowed in a bundle`);
      if (entry.isEncrypted()) throw new ZipError(`${name}: encrypted entries are not supported`);
      if (name.endsWith('/')) {
        visit.folder(name);
        continue;
      }
      declared += entry.uncompressedSize;
      if (declared > limits.maxTotalBytes) throw new ZipError(`the archive unpacks to more than ${limits.maxTotalBytes} bytes (by the sizes it declares)`);
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          inflated += chunk.length;
          if (inflated > limits.maxTotalBytes) done(new ZipError(`the archive unpacks to more than ${limits.maxTotalBytes} bytes`));
          else done(null, chunk);
        },
      });
      await pipeline(await archive.openReadStreamPromise(entry), counted, visit.file(name, mode));
    }
  } catch (err) {
    throw asZipError(err);
  }
}

/** yauzl's own errors, said in our words: what was wrong with the archive. */
function asZipError(err: unknown): ZipError {
  if (err instanceof ZipError) return err;
  const message = (err as Error).message ?? String(err);
  // The file system's (a full disk, a file where the archive wants a folder), not the archive's.
  if (typeof (err as NodeJS.ErrnoException).code === 'string') return new ZipError(`cannot write the bundle's files: ${message}`);
  if (/^(invalid characters in fileName|absolute path|invalid relative path)/.test(message)) return new ZipError(`unsafe path in the archive: ${message}`);
  if (/End of central directory record signature not found/.test(message)) return new ZipError('not a zip archive (no end of central directory)');
  if (/^(too many|too few) bytes in the stream/.test(message)) return new ZipError(`an entry unpacks to other than the size the archive declares (${message})`);
  if (/^entry is encrypted|strong encryption/.test(message)) return new ZipError(`encrypted entries are not supported (${message})`);
  return new ZipError(`the archive is damaged: ${message}`);
}

/** `dir/name`, or an error when the name would land outside `dir` (yauzl checks; so do we). */
function safePath(dir: string, name: string): string {
  if (name.includes('\\') || name.includes('\0') || path.posix.isAbsolute(name) || name.split('/').includes('..')) throw new ZipError(`unsafe path in the archive: ${JSON.stringify(name)}`);
  const target = path.resolve(dir, name);
  if (target !== dir && !target.startsWith(dir + path.sep)) throw new ZipError(`unsafe path in the archive: ${JSON.stringify(name)}`);
  return target;
}
