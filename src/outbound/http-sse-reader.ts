// Reads SSE response bodies (Streamable HTTP streams and legacy SSE) on the bytes as read: events
// are cut at their blank line without decoding, and eventsource-parser reads each event's fields.
// A large event whose data is one line keeps that line as the bytes it came in (views, never a
// copy), so a big answer reaches TransportSink.text undecoded, as a JSON body's does. Invariants: no
// event over the limit is ever held whole, and the events delivered are exactly those a parser
// fed the decoded text would deliver.

import { createParser } from 'eventsource-parser';
import { GatewayError } from '../errors.js';
import { textOf } from '../jsonrpc/ndjson.js';

/** One SSE event, as eventsource-parser reads it, except that its data may be bytes. */
export interface SseEvent {
  id?: string;
  event?: string;
  /**
   * The data field. A large event with one data line gives that line's bytes as read (without
   * `data:` and the one space after it); `sseText` decodes either form.
   */
  data: string | readonly Buffer[];
}

export interface SseHandlers {
  /** A complete event within the size limit (data may be empty: priming events). */
  onEvent(event: SseEvent): void;
  onRetry?(ms: number): void;
  onerror(err: Error): void;
  /**
   * An event over the limit was dropped (default: onerror). `head` is the start of its data, when
   * it could be kept: enough to read the id of the response it was (responseIdInHead).
   */
  onTooLarge?(err: Error, head: string | undefined): void;
}

/** How much of an event's beginning is kept, to tell which response an oversized one was. */
const EVENT_HEAD_BYTES = 256;
/** Room in an event, beyond its data, for `event:`, `id:`, `data:` prefixes and line ends. */
const EVENT_FIELDS_SLACK = 1024;
/**
 * Events up to this size are decoded whole and handed to the parser, which is cheapest for the
 * many small ones; a larger event's lines are looked at as bytes first (see readLargeEvent).
 */
const DECODE_WHOLE_BYTES = 16 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const DATA = Buffer.from('data');
const COLON = 0x3a;
const SPACE = 0x20;
const BOM_FIRST = 0xef;

/** An event's data as text, whichever form it came in. */
export function sseText(data: string | readonly Buffer[]): string {
  return typeof data === 'string' ? data : textOf(data);
}

/** The data of an event's first lines (the text after `data:` prefixes, lines joined). */
function dataOf(eventText: string): string {
  return eventText
    .split(/\r\n|\r|\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(l.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

/**
 * Feeds a response body through the framer and eventsource-parser until it ends; throws if the
 * body errors (abort, reset). An event over maxBytes is reported (with its head, to tell which
 * request it answered) and skipped to its blank line; what follows it in the same read is still read.
 */
export async function consumeSse(body: AsyncIterable<unknown>, maxBytes: number, handlers: SseHandlers): Promise<void> {
  const tooBig = (head: string | undefined) => {
    const err = new GatewayError('MESSAGE_TOO_LARGE', `the server sent an SSE event over the limit of ${maxBytes} bytes (limits.maxMessageBytes); dropped`);
    if (handlers.onTooLarge) handlers.onTooLarge(err, head);
    else handlers.onerror(err);
  };
  // The bytes of the event being fed, when its data line was taken out as bytes: the parser is
  // synchronous, so the event it dispatches during that feed is this one.
  let dataBytes: { pieces: readonly Buffer[]; size: number } | undefined;
  const parser = createParser({
    onEvent: (ev) => {
      const bytes = dataBytes;
      dataBytes = undefined;
      if (bytes !== undefined) {
        if (bytes.size > maxBytes) tooBig(headOf(bytes.pieces));
        else handlers.onEvent({ id: ev.id, event: ev.event, data: bytes.pieces });
      } else if (ev.data.length > maxBytes || (ev.data.length * 3 > maxBytes && Buffer.byteLength(ev.data) > maxBytes)) {
        tooBig(ev.data.slice(0, EVENT_HEAD_BYTES));
      } else handlers.onEvent(ev);
    },
    onRetry: (ms) => handlers.onRetry?.(ms),
    // Unknown fields and bad retry values are ignored, as EventSource does.
    onError: () => {},
  });
  const feedText = (text: string) => {
    dataBytes = undefined;
    // A CR last would keep the parser waiting for a possible LF: the blank line is said in full.
    parser.feed(text.charCodeAt(text.length - 1) === CR ? `${text}\n` : text);
  };
  const onEventBytes = (pieces: readonly Buffer[], size: number) => {
    if (size <= DECODE_WHOLE_BYTES) return feedText(textOf(pieces));
    const split = splitLargeEvent(pieces);
    if (split === undefined) return feedText(textOf(pieces));
    dataBytes = split.data;
    parser.feed(split.otherLines);
    dataBytes = undefined;
  };
  // The event's bytes may exceed its data by its field names and line ends: the data is checked above.
  const framer = new SseFramer(maxBytes + EVENT_FIELDS_SLACK, onEventBytes, (head) => tooBig(dataOf(head) || undefined));
  for await (const chunk of body) framer.push(chunk as Buffer);
}

/**
 * A large event as the parser's text without its data line, plus that line's value as bytes; or
 * undefined when the event is not one data line among other fields (several data lines are
 * joined by the parser; a byte order mark is the parser's to strip), and is then decoded whole.
 */
function splitLargeEvent(pieces: readonly Buffer[]): { otherLines: string; data: { pieces: Buffer[]; size: number } } | undefined {
  const lines = eventLines(pieces);
  if (lines.length === 0 || byteAt(lines[0]!, 0) === BOM_FIRST) return undefined;
  let dataLine = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!isDataLine(lines[i]!)) continue;
    if (dataLine !== -1) return undefined;
    dataLine = i;
  }
  if (dataLine === -1) return undefined;
  const line = lines[dataLine]!;
  const value = dropBytes(line, byteAt(line, DATA.length + 1) === SPACE ? DATA.length + 2 : DATA.length + 1);
  let otherLines = '';
  for (let i = 0; i < lines.length; i++) if (i !== dataLine) otherLines += `${textOf(lines[i]!)}\n`;
  // An empty data line makes the parser dispatch the event; its data is then the bytes taken out.
  return { otherLines: `${otherLines}data:\n\n`, data: value };
}

/** Whether a line's field is `data` (a line `data` alone is one too, with an empty value). */
function isDataLine(line: readonly Buffer[]): boolean {
  for (let i = 0; i < DATA.length; i++) if (byteAt(line, i) !== DATA[i]) return false;
  const next = byteAt(line, DATA.length);
  return next === undefined || next === COLON;
}

function byteAt(pieces: readonly Buffer[], at: number): number | undefined {
  for (const p of pieces) {
    if (at < p.length) return p[at];
    at -= p.length;
  }
  return undefined;
}

/** The pieces after their first `n` bytes, as views. */
function dropBytes(pieces: readonly Buffer[], n: number): { pieces: Buffer[]; size: number } {
  const out: Buffer[] = [];
  let size = 0;
  for (const p of pieces) {
    if (n >= p.length) {
      n -= p.length;
      continue;
    }
    const rest = n > 0 ? p.subarray(n) : p;
    n = 0;
    out.push(rest);
    size += rest.length;
  }
  return { pieces: out, size };
}

/**
 * A complete event's lines, each as views of the pieces, without line ends (CR, LF or CRLF, a
 * CRLF possibly cut between pieces) and without the blank line that ends the event.
 */
function eventLines(pieces: readonly Buffer[]): Buffer[][] {
  const lines: Buffer[][] = [];
  let line: Buffer[] = [];
  let afterCr = false;
  for (const p of pieces) {
    let from = afterCr && p.length > 0 && p[0] === LF ? 1 : 0;
    if (p.length > 0) afterCr = false;
    let lf = p.indexOf(LF, from);
    let cr = p.indexOf(CR, from);
    while (lf !== -1 || cr !== -1) {
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at > from) line.push(p.subarray(from, at));
      lines.push(line);
      line = [];
      from = at + 1;
      if (at === cr) {
        if (from === p.length) afterCr = true;
        else if (p[from] === LF) from++;
        cr = p.indexOf(CR, from);
      }
      if (lf !== -1 && lf < from) lf = p.indexOf(LF, from);
    }
    if (from < p.length) line.push(p.subarray(from));
  }
  // The event ends in a blank line: the empty line before it is not a field.
  while (lines.length > 0 && lines[lines.length - 1]!.length === 0) lines.pop();
  return lines;
}

/**
 * Cuts SSE bytes into events at blank lines (any of CRLF, LF, CR, also split between reads).
 * Line ends are found with indexOf, so the long data line of a large answer costs two native
 * scans a read, not a loop over its bytes; an event is handed over as views of the reads.
 */
export class SseFramer {
  /** The current event's bytes so far, from earlier reads. */
  private parts: Buffer[] = [];
  private size = 0;
  /** The current event went over the limit: dropped up to its blank line. */
  private skipping = false;
  /** The bytes so far end with a line end (so a line end next is a blank line). */
  private atLineStart = true;
  /** ... and that line end was a CR (so an LF next belongs to it). */
  private afterCr = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onEvent: (pieces: readonly Buffer[], size: number) => void,
    private readonly onTooBig: (head: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0; // start of the current event's bytes within `chunk`
    let lf = chunk.indexOf(LF);
    let cr = chunk.indexOf(CR);
    let last = -2; // index of the previous line end seen in this chunk
    while (lf !== -1 || cr !== -1) {
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const isCr = at === cr;
      if (isCr) cr = chunk.indexOf(CR, at + 1);
      else lf = chunk.indexOf(LF, at + 1);
      const follows = at === last + 1 || (at === 0 && last === -2 && this.atLineStart);
      if (!isCr && follows && this.afterCr) {
        // The LF of a CRLF: the same line end.
        this.afterCr = false;
        last = at;
        continue;
      }
      this.afterCr = isCr;
      last = at;
      if (!follows) continue;
      // A blank line: the event ends here.
      this.finishEvent(chunk.subarray(from, at + 1));
      from = at + 1;
    }
    const tail = chunk.length - 1;
    this.atLineStart = last === tail || (chunk.length === 0 && this.atLineStart);
    if (!this.atLineStart) this.afterCr = false;
    if (from < chunk.length) this.addPart(chunk.subarray(from));
  }

  private addPart(part: Buffer): void {
    if (this.skipping) return;
    this.parts.push(part);
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.onTooBig(headOf(this.parts));
      this.parts = [];
      this.size = 0;
      this.skipping = true;
    }
  }

  private finishEvent(lastPart: Buffer): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const pieces = this.parts.length === 0 ? [lastPart] : [...this.parts, lastPart];
    const size = this.size + lastPart.length;
    this.parts = [];
    this.size = 0;
    if (size > this.maxBytes) this.onTooBig(headOf(pieces));
    else this.onEvent(pieces, size);
  }
}

/** The first bytes of an event, decoded (a character cut at the end becomes U+FFFD). */
function headOf(pieces: readonly Buffer[]): string {
  const first = pieces[0]!;
  if (first.length >= EVENT_HEAD_BYTES || pieces.length === 1) return first.toString('utf8', 0, EVENT_HEAD_BYTES);
  return Buffer.concat(pieces).toString('utf8', 0, EVENT_HEAD_BYTES);
}
