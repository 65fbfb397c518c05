// Coalesces the lines written in one turn of the event loop into one write. Under load, one
// syscall per message was the largest single cost in profiles (a chunk of server output holds
// many responses, each answered to a client); flushing on setImmediate keeps latency within the
// same loop iteration while batching everything that turn produced.

export class LineWriter {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  write(line: string): void {
    this.pending.push(line);
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
    this.stream.write(lines.length === 1 ? lines[0]! : lines.join(''));
  };
}
