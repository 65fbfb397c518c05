// Newline-delimited JSON framing (the MCP stdio transport): one JSON message per line, no
// embedded newlines. The decoder is fed raw chunks and yields complete lines; it never buffers
// more than `maxLineBytes` of one line (an oversized line is skipped up to its newline and
// reported), so a misbehaving peer cannot make us hold an unbounded buffer. Lines are handed over
// as bytes: a server's answer can then be passed on without ever becoming a string (raw.ts); who
// needs text decodes it.

export interface LineDecoderEvents {
  /**
   * One line, without its newline (nor a CR before it), as the chunks it was read in: views of
   * them, never a copy (a 1 MiB line is sixteen 64 KiB reads; joining them would allocate it
   * again). `textOf` decodes it.
   */
  line(chunks: readonly Buffer[]): void;
  /** A line longer than the limit was discarded; only its first bytes are kept, to tell what it was. */
  oversized(bytes: number, head: string): void;
}

/** How much of an oversized line is kept: enough for its envelope (jsonrpc, id, method). */
const HEAD_BYTES = 256;

/**
 * The text of a message kept as chunks: a line as read, or a spliced answer (whose chunks may be
 * strings). Invalid UTF-8 becomes U+FFFD, as everywhere in Node.
 */
export function textOf(chunks: readonly (Buffer | string)[]): string {
  if (chunks.length === 1) return chunks[0]!.toString();
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
}

export class LineDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private skipped = 0;
  private head = '';

  constructor(
    private readonly events: LineDecoderEvents,
    private readonly maxLineBytes = 16 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        this.keep(chunk, start, chunk.length);
        return;
      }
      this.keep(chunk, start, nl);
      this.finishLine();
      start = nl + 1;
    }
  }

  /** Delivers a final unterminated line, if any (the peer closed without a newline). */
  end(): void {
    if (this.size > 0 || this.skipping) this.finishLine();
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    const n = to - from;
    if (this.skipping) {
      this.skipped += n;
      return;
    }
    if (this.size + n > this.maxLineBytes) {
      this.skipping = true;
      this.skipped = this.size + n;
      this.head = Buffer.concat([...this.parts, chunk.subarray(from, to)])
        .subarray(0, HEAD_BYTES)
        .toString('utf8');
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to));
    this.size += n;
  }

  private finishLine(): void {
    if (this.skipping) {
      const bytes = this.skipped;
      const head = this.head;
      this.skipping = false;
      this.skipped = 0;
      this.head = '';
      this.events.oversized(bytes, head);
      return;
    }
    if (this.size === 0) return; // blank line: tolerated, ignored
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    // A CRLF peer leaves '\r'; JSON.parse tolerates trailing whitespace, but keep lines clean.
    const last = parts[parts.length - 1]!;
    if (last[last.length - 1] === 13) {
      if (last.length === 1) parts.pop();
      else parts[parts.length - 1] = last.subarray(0, last.length - 1);
      if (parts.length === 0) return;
    }
    this.events.line(parts);
  }
}

/**
 * The id of the response an oversized line was, read from its first bytes, if the id comes
 * before any result or error (as every implementation writes it). Lets us fail that one request
 * at once instead of leaving it to time out.
 */
export function responseIdInHead(head: string): string | number | undefined {
  const m = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*,\s*"(result|error)"/.exec(head);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return undefined;
  }
}

/** Serializes one message as a line. JSON.stringify never emits a raw newline. Never throws. */
export function encodeLine(message: unknown): string {
  return `${serializeMessage(message)}\n`;
}

/**
 * JSON text of a message we send. Depth is bounded where messages enter, so this cannot
 * overflow; should anything still make JSON.stringify throw (a cycle, a BigInt), the peer gets
 * an error in place of that one message, and nothing throws out of a write path.
 */
export function serializeMessage(message: unknown): string {
  try {
    return JSON.stringify(message);
  } catch (err) {
    const id = (message as { id?: unknown } | null)?.id;
    const safeId = typeof id === 'string' || typeof id === 'number' ? id : null;
    return JSON.stringify({
      jsonrpc: '2.0',
      id: safeId,
      error: { code: -32603, message: `Internal error: the message could not be serialised (${err instanceof Error ? err.message : String(err)})` },
    });
  }
}
