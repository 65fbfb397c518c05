// The last lines a server process wrote on stderr (bounded in count and length), and which of
// them says why it failed. The last line is rarely it: Node ends a crash with `Node.js v20.x`,
// npm ends every error with where its debug log is. Pure: no I/O; the stdio transport feeds it.

/** Lines kept, and characters kept per line: enough for a stack trace's head, bounded for a log flood. */
export const TAIL_LINES = 40;
export const TAIL_LINE_CHARS = 400;

export class StderrTail {
  private readonly lines: string[] = [];

  push(line: string): void {
    if (this.lines.length >= TAIL_LINES) this.lines.shift();
    this.lines.push(line.length > TAIL_LINE_CHARS ? `${line.slice(0, TAIL_LINE_CHARS)}…` : line);
  }

  get all(): readonly string[] {
    return this.lines;
  }

  /** The line most likely to say what went wrong, or undefined when nothing was written. */
  reason(): string | undefined {
    return informativeLine(this.lines);
  }
}

// What npm and Node print around the real message, and never the message itself.
const NOISE: RegExp[] = [
  /^\s*$/,
  /^Node\.js v\d/, // Node's version, after an uncaught exception
  /^\s+at\s/, // stack frames
  /^\s*\^+\s*$/, // the caret under the throwing source line
  /^\s*\}\s*$|^\s+[\w$]+: .*$/, // an error object's own fields (`  code: 'ERR_…'`) and its end
  /^npm (error|ERR!) A complete log of this run can be found in/,
  /^npm (error|ERR!) (code|errno|syscall|path|404)?\s*$/,
  /^npm (error|ERR!) (code|errno|syscall) \S+$/,
  /^npm (error|ERR!) 404\s+(Note that you can also install|tarball, folder, http url)/,
  /^npm (warn|WARN|notice)\b/,
  /^\(Use `node --trace-\w+ \.\.\.` to show where/,
];

/** An uncaught exception's headline: `Error: …`, `TypeError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`. */
const THROWN = /^(Uncaught )?([A-Z]\w*)?(Error|Exception)( \[[A-Z0-9_]+\])?: \S/;
/** npm could not find the package (npx of a misspelt or private name). */
const NPM_NOT_FOUND = /^npm (error|ERR!) 404 Not Found\b/;

/**
 * Picks the informative line of a stderr tail: npm's `404 Not Found - GET …` line, else the last
 * thrown error's headline, else the last line that is not known noise, else the last line.
 */
export function informativeLine(lines: readonly string[]): string | undefined {
  if (lines.length === 0) return undefined;
  const last = (test: (line: string) => boolean) => {
    for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i]!)) return lines[i]!.trim();
    return undefined;
  };
  return last((l) => NPM_NOT_FOUND.test(l)) ?? last((l) => THROWN.test(l.trim())) ?? last((l) => !NOISE.some((n) => n.test(l))) ?? lines.at(-1)!.trim();
}
