// The log as a person reads it on a terminal: the gateway's lines short, warnings and errors
// labelled, fields after the message, a server's own stderr apart under its name; secrets still
// redacted (pino redacts before the line is shaped).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger, prettyLine } from '../../../src/log.js';

function logged(level = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, format: 'pretty', lines: (t) => lines.push(t), color: false });
  return { logger, lines };
}

describe('pretty log lines', () => {
  it('prints an info line as its message, with no time or level', () => {
    const { logger, lines } = logged();
    logger.info('catalog: 40 tools, 4 prompts, 8 resources, 2 templates');
    expect(lines).toEqual(['catalog: 40 tools, 4 prompts, 8 resources, 2 templates']);
  });

  it("puts a server's stderr under its name, apart from the gateway's lines", () => {
    const { logger, lines } = logged();
    logger.child({ server: 'memory' }).info({ stream: 'stderr' }, 'Knowledge Graph MCP Server running on stdio');
    expect(lines).toEqual(['  memory │ Knowledge Graph MCP Server running on stdio']);
  });

  it('labels warnings and errors, names the server, and gives the fields after the message', () => {
    const { logger, lines } = logged();
    const server = logger.child({ server: 'files' });
    server.warn({ retryInMs: 500, problem: 'exited' }, 'server down; reconnecting');
    server.error('files: failed — server process exited with code 1');
    expect(lines).toEqual(['warning: files: server down; reconnecting (retryInMs=500, problem=exited)', 'error: files: failed — server process exited with code 1']);
  });

  it('keeps secrets redacted', () => {
    const { logger, lines } = logged();
    logger.info({ headers: { authorization: 'Bearer s3cret' }, token: 't0ken' }, 'request');
    expect(lines.join('\n')).not.toMatch(/s3cret|t0ken/);
    expect(lines[0]).toContain('[redacted]');
  });

  it('colours the label when asked, and leaves a server line dim', () => {
    expect(prettyLine(JSON.stringify({ level: 50, msg: 'boom' }), true)).toBe('\x1b[31merror: boom\x1b[0m');
    expect(prettyLine(JSON.stringify({ level: 30, msg: 'hi', server: 's', stream: 'stderr' }), true)).toBe('\x1b[2m  s │ hi\x1b[0m');
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => void prettyLine(text),
      ),
    );
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (entry) => void prettyLine(JSON.stringify(entry), true)));
  });
});
