// Refusing an HTTP answer must never take the gateway down. Run in a child process (the built
// transport in dist/), because the failure is an uncaught 'error' event that ends the process.
//
// Found by this suite: an undici body destroyed before it was read emits 'error'
// (RequestAbortedError); with no listener, a server answering with a Content-Length over
// limits.maxMessageBytes, or with a 200 of another content type (a web page at a mistyped URL),
// crashed the whole gateway with exit code 1. Every discard now goes through discardBody()
// (http-common.ts), which listens first.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeBin, repoRoot } from '../helpers/paths.js';

const child = path.join(repoRoot, 'test', 'contract', 'refused-body-child.mjs');

async function run(which: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(nodeBin, [child, path.join(repoRoot, 'dist'), which]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('Streamable HTTP: a refused answer fails its request and nothing else', () => {
  it('an answer with a Content-Length over maxMessageBytes', async () => {
    const r = await run('oversized-length');
    expect(r.stderr).toContain('refused request: failed: MESSAGE_TOO_LARGE');
    expect(r).toMatchObject({ code: 0, stdout: 'survived\n' });
  });

  it('a 200 answer that is not JSON or SSE (a web page)', async () => {
    const r = await run('wrong-type');
    expect(r.stderr).toContain('refused request: failed: PROTOCOL_ERROR');
    expect(r).toMatchObject({ code: 0, stdout: 'survived\n' });
  });
});
