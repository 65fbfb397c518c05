// The little HTTP the connect pages need beyond node:http: a bounded urlencoded form body, cookies
// read and written (HttpOnly, SameSite=Lax, Path=/connect, Secure on https), the query.

import type { IncomingMessage } from 'node:http';

/** A connect form is a few fields; anything larger is refused before it is read in full. */
export const MAX_FORM_BYTES = 16 * 1024;

export class FormTooLarge extends Error {}

/** The POSTed form, at most `limit` bytes; rejects FormTooLarge past it, or on a body of another type. */
export function readForm(req: IncomingMessage, limit = MAX_FORM_BYTES): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return reject(new Error('not a form'));
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) return reject(new FormTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new FormTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function cookie(name: string, value: string, maxAgeSec: number, secure: boolean): string {
  return `${name}=${value}; Max-Age=${maxAgeSec}; Path=/connect; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function queryOf(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
}

export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
