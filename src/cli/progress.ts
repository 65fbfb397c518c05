// A line per server while `check` and `serve` connect: a spinner per server on a terminal, plain
// lines otherwise ("memory: connecting", then what it gave or why it failed). Fed with the
// servers' summaries whenever the catalog is rebuilt; writes on stderr only (stdout is the
// protocol in stdio mode, and the report in check).

import type { ServerSummary } from '../outbound/summary.js';
import { describeServer, isDown } from './report.js';
import type { Terminal } from './terminal.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Whether a server's start-up is over, for better or worse. */
export function settled(s: ServerSummary): boolean {
  return s.state !== 'connecting' || isDown(s);
}

export interface ProgressOutput {
  /** A finished server's line; `down` when it did not connect. */
  done(text: string, down: boolean): void;
  /** A plain line (off a terminal: "x: connecting"). */
  note(text: string): void;
}

export class ConnectProgress {
  private readonly pending = new Set<string>();
  private frame = 0;
  private timer?: NodeJS.Timeout;
  private spinning = true;

  constructor(
    private readonly terminal: Terminal,
    private readonly output: ProgressOutput,
  ) {}

  /** Starts showing the servers that are still connecting (the others are reported at once). */
  start(servers: ServerSummary[]): void {
    for (const s of servers) {
      if (settled(s)) this.output.done(describeServer(s), isDown(s));
      else {
        this.pending.add(s.name);
        if (!this.terminal.tty) this.output.note(`${s.name}: connecting`);
      }
    }
    this.draw();
    if (this.terminal.tty && this.pending.size > 0) {
      this.timer = setInterval(() => {
        this.frame = (this.frame + 1) % FRAMES.length;
        this.draw();
      }, 80);
      this.timer.unref();
    }
  }

  /** Reports every server that settled since the last call. */
  update(servers: ServerSummary[]): void {
    for (const s of servers) {
      if (!this.pending.has(s.name) || !settled(s)) continue;
      this.pending.delete(s.name);
      this.output.done(describeServer(s), isDown(s));
    }
    if (this.pending.size === 0) this.stopTimer();
    this.draw();
  }

  /** Names still connecting. */
  get waiting(): string[] {
    return [...this.pending];
  }

  /**
   * Takes the spinners off the terminal (serving has begun: log lines follow). Servers still
   * connecting are reported by later update() calls, as plain lines, when they settle.
   */
  stopSpinning(): void {
    this.stopTimer();
    this.spinning = false;
    this.terminal.setLive([]);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private draw(): void {
    if (!this.spinning) return;
    this.terminal.setLive([...this.pending].map((name) => `${FRAMES[this.frame]} ${name}: connecting`));
  }
}
