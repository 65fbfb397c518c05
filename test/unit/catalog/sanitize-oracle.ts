// Test oracles for the sanitizer, written from the spec independently of the implementation:
// which characters no reader can see, and every string of a value (the way a model reads it).

// A zero-width joiner between two pictographs is how emoji such as 👩‍💻 are written: visible, allowed.
const EMOJI_JOIN = /(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;
const FORBIDDEN = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF\p{Cf}\p{Cs}\x1b]|(?![\n\t])\p{Cc}/u;

// A Windows line end (CR LF) and a byte-order mark that starts the text are what files are made
// of, and hide nothing: allowed (a skill file must keep the digest its server gives).
export const hasForbidden = (s: string): boolean =>
  FORBIDDEN.test(
    s
      .replace(EMOJI_JOIN, '')
      .replace(/\r\n/g, '\n')
      .replace(/^\uFEFF/, ''),
  );

/** Every string in `value` (object keys included), except under `_meta`. Iterative. */
export function allStrings(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k === '_meta') continue;
        out.push(k);
        stack.push(child);
      }
    }
  }
  return out;
}

/** Text hidden in Unicode tag characters (U+E0000 + ASCII): invisible in every UI. */
export const tagged = (s: string): string => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
