// stderr on a terminal, shared by the log and the progress display: a block of "live" lines at
// the bottom (spinners) that is cleared before each permanent line and redrawn after it, so log
// lines never land inside a spinner. Off a terminal there is no live block, only lines.

export interface TerminalOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const CLEAR_LINE = '\r\x1b[2K';
const UP = '\x1b[1A';

export class Terminal {
  private live: string[] = [];

  constructor(
    private readonly out: TerminalOutput,
    /** Whether live lines may be drawn (a terminal that only this shows pretty lines on). */
    readonly tty = out.isTTY === true,
    colorWanted = true,
  ) {
    this.color = tty && colorWanted;
  }

  /** Whether lines may carry colours. */
  readonly color: boolean;

  /** Writes one permanent line (without its newline) above the live block. */
  line(text: string): void {
    this.out.write(`${this.erase() + text}\n${this.draw()}`);
  }

  /** Replaces the live block (ignored off a terminal). */
  setLive(lines: string[]): void {
    if (!this.tty) return;
    const erase = this.erase();
    this.live = lines;
    this.out.write(erase + this.draw());
  }

  private erase(): string {
    return this.live.length === 0 ? '' : (CLEAR_LINE + UP).repeat(this.live.length) + CLEAR_LINE;
  }

  private draw(): string {
    // A live line that wraps would take two rows and break the count: cut it to the width.
    const width = Math.max(20, (this.out.columns || 80) - 1);
    return this.live.map((l) => `${l.length > width ? `${l.slice(0, width - 1)}…` : l}\n`).join('');
  }
}
