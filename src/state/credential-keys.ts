// The keys per-user credentials are encrypted with, and the sealing itself: a keyring (one current
// key that seals, older keys that still open) read from SWITCHBOARD_CREDENTIALS_KEY or a 0600 key
// file, and AES-256-GCM with the (user, server) pair bound in as additional authenticated data.

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A sealed record: `sbc1.<keyId>.<nonce>.<ciphertext+tag>` (base64url). Opaque to the backends. */
export type Sealed = string;

/** Raised when a record does not open: wrong key, another (user, server), or a changed byte. */
export class CredentialDecryptError extends Error {
  override readonly name = 'CredentialDecryptError';
}

const VERSION = 'sbc1';
const NONCE_BYTES = 12; // 96 bits: the size GCM is specified for (other sizes are hashed into one)
const TAG_BYTES = 16;

/** A key's id: a hash of the key (never the key), so a record names the key it needs without a registry. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('switchboard credential key id\0').update(key).digest('hex').slice(0, 16);
}

/** 32 bytes from base64 (or base64url) or hex; anything else is refused (a short key is a weak key). */
export function parseKey(text: string, where: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : undefined;
  if (key?.length !== 32) throw new Error(`${where}: a credentials key is 32 bytes, written as 64 hex digits or 44 base64 characters`);
  return key;
}

/**
 * The binding of a record to its place. Why AAD: GCM authenticates it without storing it, so a
 * record copied or moved under another (user, server), by someone who can write the file or Redis
 * but has no key, fails to open instead of handing bob's token to alice. JSON makes the pair
 * unambiguous ("a b" + "c" differs from "a" + "b c").
 */
function aad(user: string, server: string): Buffer {
  return Buffer.from(JSON.stringify([VERSION, user, server]), 'utf8');
}

/**
 * One current key and older ones. Why AES-256-GCM: an AEAD in node:crypto with no dependency, so
 * one pass both hides a record and proves it unchanged (a flipped byte is an error, never a
 * different token); a random 96-bit nonce per record keeps nonces unique for far more writes than
 * a gateway makes in a key's life.
 */
export class Keyring {
  private readonly keys = new Map<string, Buffer>();
  readonly currentId: string;

  /** `current` seals; `older` (the keys before a rotation) only open. */
  constructor(current: Buffer, older: readonly Buffer[] = []) {
    for (const key of [current, ...older]) {
      if (key.length !== 32) throw new Error('a credentials key is 32 bytes');
      this.keys.set(keyIdOf(key), key);
    }
    this.currentId = keyIdOf(current);
  }

  /** The ids of every key held, current first: what `switchboard check` may show (ids, never keys). */
  get ids(): string[] {
    return [...this.keys.keys()];
  }

  seal(user: string, server: string, plaintext: string): Sealed {
    const key = this.keys.get(this.currentId)!;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(user, server));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.currentId, nonce.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(user: string, server: string, sealed: Sealed): string {
    const parts = sealed.split('.');
    const [version, keyId, nonceText, bodyText] = parts;
    if (parts.length !== 4 || version !== VERSION) throw new CredentialDecryptError('not a sealed credential');
    const key = this.keys.get(keyId!);
    if (key === undefined) throw new CredentialDecryptError(`sealed with key ${keyId}, which this keyring does not hold`);
    const nonce = Buffer.from(nonceText!, 'base64url');
    const body = Buffer.from(bodyText!, 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new CredentialDecryptError('a sealed credential of the wrong size');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(user, server));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // Which of key, place or bytes is wrong GCM cannot tell, and saying more would help nobody.
      throw new CredentialDecryptError(`the credential of ${JSON.stringify(user)} for ${JSON.stringify(server)} does not decrypt (wrong key, moved, or altered)`);
    }
  }

  /** The id of the key `sealed` names, or undefined when it is not a sealed record. */
  static keyIdOf(sealed: Sealed): string | undefined {
    const parts = sealed.split('.');
    return parts.length === 4 && parts[0] === VERSION ? parts[1] : undefined;
  }
}

export interface KeyringSource {
  readonly env?: NodeJS.ProcessEnv;
  /** One key a line, current first, older keys after it; `#` lines are comments. */
  readonly keyFile?: string;
  /** With no key in the environment and no key file: write a new one at keyFile (0600). */
  readonly create?: boolean;
}

/**
 * The keyring from SWITCHBOARD_CREDENTIALS_KEY (older keys in SWITCHBOARD_CREDENTIALS_OLD_KEYS,
 * comma-separated), else from the key file. A key file others can read is refused, not tightened:
 * the key may already have leaked, and rotating is the remedy.
 */
export async function loadKeyring(source: KeyringSource): Promise<Keyring> {
  const env = source.env ?? process.env;
  const fromEnv = env.SWITCHBOARD_CREDENTIALS_KEY;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const older = (env.SWITCHBOARD_CREDENTIALS_OLD_KEYS ?? '').split(',').filter((k) => k.trim() !== '');
    return new Keyring(
      parseKey(fromEnv, 'SWITCHBOARD_CREDENTIALS_KEY'),
      older.map((k, i) => parseKey(k, `SWITCHBOARD_CREDENTIALS_OLD_KEYS (key ${i + 1})`)),
    );
  }
  const file = source.keyFile;
  if (file === undefined) throw new Error('no credentials key: set SWITCHBOARD_CREDENTIALS_KEY (32 bytes, base64 or hex) or give a key file');
  let text: string;
  try {
    const st = await stat(file);
    if ((st.mode & 0o077) !== 0) throw new Error(`${file}: a credentials key file must be readable only by its owner (chmod 600), and a key others could read should be rotated`);
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || source.create !== true) throw err;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    text = `# switchboard credentials key: keep it secret, keep it apart from the data\n${randomBytes(32).toString('base64')}\n`;
    // 'wx': two processes starting together must not each write, and then use, a different key.
    await writeFile(file, text, { mode: 0o600, flag: 'wx' }).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
      text = await readFile(file, 'utf8');
    });
    await chmod(file, 0o600);
  }
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) throw new Error(`${file}: no key in the credentials key file`);
  return new Keyring(
    parseKey(lines[0]!, file),
    lines.slice(1).map((l, i) => parseKey(l, `${file} (older key ${i + 1})`)),
  );
}
