// How deeply a JSON text nests, judged on the raw text before (or instead of) parsing. V8 parses
// any depth, but JSON.stringify and every recursive walk overflow the stack a few thousand levels
// down: a message nested past the limit is refused where it enters, never serialised again.
// Linear in the text; string contents are skipped with indexOf, so long strings cost little.

/** True when `text` has more than `max` nested arrays/objects at some point. Never throws. */
export function exceedsDepth(text: string, max: number): boolean {
  // Each level needs at least one character: a short text cannot be deep.
  if (text.length <= max) return false;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      i = stringEnd(text, i);
      if (i === -1) return false; // unterminated: JSON.parse will refuse it
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that closes the string opening at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    for (let j = at - 1; j > open && text.charCodeAt(j) === 92; j--) backslashes++;
    if ((backslashes & 1) === 0) return at;
  }
}

/** Depth of an already parsed value (iterative), capped at `max + 1`. For values we build ourselves. */
export function valueDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
