// Instructions the gateway process executes per tools/call, counted by valgrind (callgrind),
// which does not depend on the machine's load as CPU time does: on 2 shared cores under load the
// timed benchmark cannot resolve a few per cent. This count is load-free, but its runs are bimodal (about 280k or 320k a call for one build: JIT and GC; bench/NOTES.md): compare several runs each.
// Each build is run over stdio in front of bench/echo-server.mjs, once with no calls and once with
// --calls (32 in flight, 100 B); the difference over the calls is the per-call count.
//   node bench/instructions.mjs --cli dist/main.js --cli /other/checkout/dist/main.js [--calls 3000] [--runs 2]
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cli: { type: 'string', multiple: true }, calls: { type: 'string', default: '3000' }, runs: { type: 'string', default: '2' } } });
const echo = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-instr-'));
const config = path.join(dir, 'switchboard.yaml');
writeFileSync(config, `servers:\n  - name: echo\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(echo)}]\n`);

/** Total instructions of one gateway run that answers `n` calls. */
function count(cli, n) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, cli, 'serve', '-c', config, '--stdio'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let buf = '';
    const waiters = new Map();
    child.stdout.on('data', (d) => {
      buf += d;
      for (let i; (i = buf.indexOf('\n')) >= 0; ) {
        const m = JSON.parse(buf.slice(0, i));
        buf = buf.slice(i + 1);
        waiters.get(m.id)?.(m);
        waiters.delete(m.id);
      }
    });
    let id = 0;
    const req = (method, params) =>
      new Promise((r) => {
        const i = ++id;
        waiters.set(i, r);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: i, method, params })}\n`);
      });
    child.on('exit', () => {
      const m = /Collected : (\d+)/.exec(err);
      m ? resolve(Number(m[1])) : reject(new Error(`no count: ${err.slice(-400)}`));
    });
    (async () => {
      await req('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'instructions', version: '1' } });
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      const tool = (await req('tools/list', {})).result.tools[0].name;
      let started = 0;
      const worker = async () => {
        while (started < n) {
          started++;
          await req('tools/call', { name: tool, arguments: { text: 'x'.repeat(100) } });
        }
      };
      await Promise.all(Array.from({ length: 32 }, worker));
      child.stdin.end();
    })().catch(reject);
  });
}

const n = Number(values.calls);
for (let run = 1; run <= Number(values.runs); run++) {
  for (const cli of values.cli ?? ['dist/main.js']) {
    const base = await count(cli, 0);
    const total = await count(cli, n);
    console.log(`run ${run}  ${cli}: ${((total - base) / n / 1000).toFixed(1)}k instructions per call (start-up ${(base / 1e6).toFixed(0)}M)`);
  }
}
