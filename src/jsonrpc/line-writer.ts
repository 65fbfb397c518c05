// Coalesces the lines written in one turn of the event loop into few writes. Under load, one
// syscall per message was the largest single cost in profiles (a chunk of server output holds
// many responses, each answered to a client); flushing on setImmediate keeps latency within the
// same loop iteration while batching everything that turn produced. Small lines are joined up to
// JOIN_LIMIT characters; a large one is written on its own, so a burst of big messages never
// builds one string past V8's string length limit ("Invalid string length").

/** Joined writes stay under this many characters. */
const JOIN_LIMIT = 1024 * 1024;

export class LineWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private scheduled = false;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  /** Characters written but not yet handed to the stream (callers add the stream's own buffer). */
  get pendingBytes(): number {
    return this.pendingChars;
  }

  write(line: string): void {
    this.pending.push(line);
    this.pendingChars += line.length;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes what is pending now (also before closing the stream). */
  readonly flush = (): void => {
    this.scheduled = false;
    const lines = this.pending;
    if (lines.length === 0) return;
    this.pending = [];
    this.pendingChars = 0;
    if (lines.length === 1) {
      this.stream.write(lines[0]!);
      return;
    }
    let batch: string[] = [];
    let size = 0;
    for (const line of lines) {
      if (size + line.length > JOIN_LIMIT && batch.length > 0) {
        this.stream.write(batch.length === 1 ? batch[0]! : batch.join(''));
        batch = [];
        size = 0;
      }
      batch.push(line);
      size += line.length;
    }
    this.stream.write(batch.length === 1 ? batch[0]! : batch.join(''));
  };
}
