// Sealed tokens for the connect pages: links, the identity cookie, CSRF tokens, form tickets and
// pending flows are JSON sealed with AES-256-GCM under a key derived (HKDF-SHA256) from the signing
// key, one derived key per purpose, so a token made for one use never opens as another and
// carries no readable user id. Any replica holding the same signing key opens any replica's token.
// Invariant: open() answers undefined for anything it did not seal, never throws on input.

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type SealPurpose = 'link' | 'cookie' | 'csrf' | 'ticket' | 'flow';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class Sealer {
  private readonly key: Buffer;

  constructor(signingKey: Buffer, purpose: SealPurpose) {
    this.key = Buffer.from(hkdfSync('sha256', signingKey, 'switchboard-connect', `connect:${purpose}`, 32));
  }

  seal(value: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  open<T>(token: string | undefined): T | undefined {
    if (typeof token !== 'string' || token.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES + 2) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }
}

/** The sealers of every purpose, made once from one signing key. */
export interface Sealers {
  readonly link: Sealer;
  readonly cookie: Sealer;
  readonly csrf: Sealer;
  readonly ticket: Sealer;
  readonly flow: Sealer;
}

export function sealers(signingKey: Buffer): Sealers {
  return {
    link: new Sealer(signingKey, 'link'),
    cookie: new Sealer(signingKey, 'cookie'),
    csrf: new Sealer(signingKey, 'csrf'),
    ticket: new Sealer(signingKey, 'ticket'),
    flow: new Sealer(signingKey, 'flow'),
  };
}

/** A random id for nonces and elicitations (base64url, 128 bits). */
export function nonce(): string {
  return randomBytes(16).toString('base64url');
}
