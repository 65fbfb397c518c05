// Writing a raw answer (raw.ts) out with edits at byte offsets the scan found: the client's id in
// place of the server's, and members added to the front of the result object (the stateless
// revision's dressing). The bytes between edits are passed on as they came: one decoded string
// for a small answer, views of the reads for a large one (no copy of the result).

import type { JsonRpcId } from '../protocol/jsonrpc.js';
import { SPLICE_AS_TEXT_BYTES, splicedResponse, type RawResponse, type SplicedResponse } from './raw.js';

/** Bytes [start, end) of the message replaced by `text` (end === start inserts). */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The same response with `id` in place of the server's: valid JSON whenever the server's was. */
export function spliceId(r: RawResponse, id: JsonRpcId): SplicedResponse {
  return applyEdits(r, id, [{ start: r.idStart, end: r.idEnd, text: JSON.stringify(id) }]);
}

/**
 * The same response with `id` spliced in and `members` (JSON text of members, e.g. `"a":1`) put
 * first in its result object; undefined when the result is not an object (the caller then parses).
 * The caller makes sure the result has no member of those names (RawResponse.resultPlain).
 */
export function spliceIdAndMembers(r: RawResponse, id: JsonRpcId, members: string): SplicedResponse | undefined {
  if (r.resultStart === -1) return undefined;
  const insert: Edit = { start: r.resultStart + 1, end: r.resultStart + 1, text: r.resultEmpty ? members : `${members},` };
  const idEdit: Edit = { start: r.idStart, end: r.idEnd, text: JSON.stringify(id) };
  return applyEdits(r, id, idEdit.start < insert.start ? [idEdit, insert] : [insert, idEdit]);
}

/** `edits` in order of offset, not overlapping. Offsets are bytes of ASCII structure (never inside a character). */
function applyEdits(r: RawResponse, id: JsonRpcId, edits: readonly Edit[]): SplicedResponse {
  let byteLength = r.byteLength;
  for (const e of edits) byteLength += Buffer.byteLength(e.text) - (e.end - e.start);
  if (r.byteLength <= SPLICE_AS_TEXT_BYTES) {
    const bytes = r.chunks.length === 1 ? r.chunks[0]! : Buffer.concat(r.chunks as Buffer[]);
    // One decode; the offsets carry over when no multi-byte character comes before the last edit (as good as always).
    const text = bytes.toString('utf8');
    const last = edits[edits.length - 1]!.end;
    const piece = text.length === bytes.length || asciiUpTo(bytes, last) ? (from: number, to?: number) => text.slice(from, to) : (from: number, to?: number) => bytes.toString('utf8', from, to);
    let out = '';
    let at = 0;
    for (const e of edits) {
      out += piece(at, e.start) + e.text;
      at = e.end;
    }
    return splicedResponse([out + piece(at)], byteLength, id, r.isError);
  }
  const out: Buffer[] = [];
  let k = 0;
  let base = 0;
  let at = 0;
  // Copies nothing: views of each chunk between edits, and each edit's text as a Buffer of its own.
  const takeUpTo = (to: number) => {
    while (at < to) {
      const chunk = r.chunks[k]!;
      const end = base + chunk.length;
      const stop = Math.min(end, to);
      out.push(at === base && stop === end ? chunk : chunk.subarray(at - base, stop - base));
      at = stop;
      if (at === end) {
        base = end;
        k++;
      }
    }
  };
  const skipTo = (to: number) => {
    at = to;
    while (k < r.chunks.length && base + r.chunks[k]!.length <= at) base += r.chunks[k++]!.length;
  };
  for (const e of edits) {
    takeUpTo(e.start);
    out.push(Buffer.from(e.text, 'utf8'));
    skipTo(e.end);
  }
  takeUpTo(r.byteLength);
  return splicedResponse(out, byteLength, id, r.isError);
}

function asciiUpTo(bytes: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}
