// Everything the sanitizer judges (rather than simply removes) in one text, as spans of the ORIGINAL
// text: injection patterns matched on the folded view (homoglyphs, full-width, diacritics), the same
// patterns inside base64 runs, and images loading from another host. Pure; linear in the text.

import { eachMatch, findInjections, quote, type FindOptions } from './injection.js';
import { matchView, originalSpan } from './sanitize-fold.js';
import { findRemoteImages } from './sanitize-markup.js';

export interface Hit {
  start: number;
  end: number;
  kind: 'injection' | 'image';
  label: string;
  excerpt: string;
}

/** base64 (standard or URL-safe) runs, possibly wrapped over lines; 20 characters decode to 15 bytes. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}(?:\r?\n[A-Za-z0-9+/_-]{4,}={0,2})*/g;
/** base64 inside base64 is unwrapped this many times, no more. */
const MAX_BASE64_DEPTH = 2;
// Decoded bytes count as text when almost all of them are printable: binary data (images, hashes)
// decodes to noise and is left alone without being searched.
const UNPRINTABLE = /[\x00-\x08\x0e-\x1f\x7f\uFFFD]/g;

function decodedText(run: string): string | undefined {
  const bytes = Buffer.from(run.replace(/\r?\n/g, ''), 'base64');
  if (bytes.length < 12) return undefined;
  const text = bytes.toString('utf8');
  const bad = text.match(UNPRINTABLE)?.length ?? 0;
  return bad * 20 <= text.length ? text : undefined;
}

/** Injection patterns in `text`, on its folded view and inside its base64 runs, mapped back to `text`. */
export function findInjectionSpans(text: string, options: FindOptions = {}, depth = 0): Hit[] {
  const view = matchView(text);
  const hits: Hit[] = [];
  for (const h of findInjections(view.text, options)) {
    const [start, end] = originalSpan(view, h.start, h.end, text.length);
    // Quote the original, so the audit shows what the server really sent (`ｉｇｎｏｒｅ…`).
    hits.push({ start, end, kind: 'injection', label: h.label, excerpt: view.from ? quote(text.slice(start, end)) : h.excerpt });
  }
  if (depth < MAX_BASE64_DEPTH && text.length >= 20) {
    // Collected first: the search inside a run reuses BASE64_RUN.
    const runs: [number, string][] = [];
    eachMatch(BASE64_RUN, text, (m) => runs.push([m.index, m[0]]));
    for (const [start, run] of runs) {
      const decoded = decodedText(run);
      if (decoded === undefined) continue;
      const inner = findInjectionSpans(decoded, options, depth + 1);
      if (inner.length === 0) continue;
      let end = start + run.length;
      while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
      const first = inner[0]!;
      hits.push({ start, end, kind: 'injection', label: `${first.label.replace(/ \(base64\)$/, '')} (base64)`, excerpt: first.excerpt });
    }
  }
  return hits;
}

/** Everything judged in `text`, in order of position (spans may overlap). */
export function detect(text: string, options: FindOptions = {}): Hit[] {
  const hits = findInjectionSpans(text, options);
  for (const h of findRemoteImages(text)) {
    let end = h.end;
    while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
    hits.push({ start: h.start, end, kind: 'image', label: h.label, excerpt: quote(h.target) });
  }
  return hits.sort((a, b) => a.start - b.start || a.end - b.end);
}
