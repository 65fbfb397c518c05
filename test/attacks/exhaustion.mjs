// Attacks that tried to exhaust the gateway's memory, sockets and sessions (issue "Hardening",
// items 2, 3, 4): the gateway must refuse at once, stay within bounds, and keep serving others.

import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { HttpClient, breached, held, rawHttp, stdioServer, withGateway } from './lib.mjs';

const MiB = 1024 * 1024;
const TOKENS = `clients:\n  - name: alice\n    token: alice-token\n  - name: canary\n    token: canary-token\n`;

/** A canary client in its own process (canary-process.mjs): ready once its session is open; `go` starts its calls. */
async function startCanary(url, token, tool, count) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./canary-process.mjs', import.meta.url)), url, token, tool, String(count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const lines = [];
  let wake;
  child.stdout.on('data', (d) => {
    out += d;
    for (let nl = out.indexOf('\n'); nl !== -1; nl = out.indexOf('\n')) {
      lines.push(out.slice(0, nl));
      out = out.slice(nl + 1);
      wake?.();
    }
  });
  const line = (n) =>
    new Promise((resolve, reject) => {
      const check = () => (lines.length > n ? resolve(lines[n]) : undefined);
      wake = check;
      child.once('exit', () => (lines.length > n ? resolve(lines[n]) : reject(new Error('the canary process ended early'))));
      check();
    });
  if ((await line(0)) !== 'ready') throw new Error('the canary did not start');
  return { go: () => child.stdin.write('go\n'), stop: () => child.stdin.write('stop\n'), done: line(1).then((l) => JSON.parse(l)) };
}

export const exhaustion = [
  {
    name: 'memory bomb: many concurrent 15 MiB calls',
    item: 2,
    async run({ cli }) {
      // 60 calls of 15 MiB from 6 sessions at once took the old gateway past 2 GB. Now each is
      // admitted or refused at once; memory stays bounded and another client keeps being served.
      const yaml = `${TOKENS}servers:\n${stdioServer('bad', 'hostile.mjs')}${stdioServer('calm', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const body = (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"bad__echo","arguments":{"text":"${'x'.repeat(15 * MiB)}"}}}`;
        const bombers = await Promise.all(
          Array.from({ length: 6 }, async () => {
            const c = new HttpClient(gw.url, { token: 'alice-token' });
            await c.initialize();
            return c;
          }),
        );
        // The canary is another client, in a process of its own, calling its own server meanwhile.
        const canary = await startCanary(gw.url, 'canary-token', 'calm__echo', 20);
        const payload = body(1);
        const outcomes = { answered: 0, refused: 0, failed: 0 };
        canary.go();
        const bomb = Promise.all(
          bombers.flatMap((c) =>
            Array.from({ length: 10 }, () =>
              c.post(payload).then(
                (r) => (r.status === 200 ? outcomes.answered++ : r.status === 429 || r.status === 503 ? outcomes.refused++ : outcomes.failed++),
                // A refusal answered before the body was read may reset the upload: a refusal too.
                () => outcomes.refused++,
              ),
            ),
          ),
        );
        await bomb;
        canary.stop();
        const { ok: canaryOk, total: canaryCalls, errors: canaryErrors } = await canary.done;
        const peak = gw.peakRssMiB();
        const alive = gw.alive;
        const detail = `peak RSS ${peak.toFixed(0)} MiB; 60 bomb calls: ${outcomes.answered} answered, ${outcomes.refused} refused, ${outcomes.failed} other; canary ${canaryOk}/${canaryCalls} (calling all along the bomb)${canaryErrors.length ? ` (${canaryErrors[0]})` : ''}`;
        return alive && peak < 1024 && canaryCalls >= 20 && canaryOk === canaryCalls && outcomes.failed === 0 && outcomes.refused > 0
          ? held(detail)
          : breached(`${alive ? '' : 'the gateway died; '}${detail}`);
      });
    },
  },
  {
    name: 'one client fills the event store with large SSE answers',
    item: 32,
    async run({ cli }) {
      // Every SSE event of a stateful session is kept for resumption (Last-Event-ID). Kept whole,
      // one client's 1 MiB answers (a progress notification makes each an SSE stream) stayed in
      // the gateway's memory: 30 sessions × 10 answers were 327 MiB more RSS, and the defaults
      // (100 sessions a principal, 1000 events each) let it go on to 100 GiB. Bounded
      // (state.maxEventBytes; 64 MiB in all), stand-ins are kept: RSS grows by far less than the
      // 300 MiB sent. 120 MiB of growth is the line: the 64 MiB bound plus the heap's slack.
      const yaml = `${TOKENS}servers:\n${stdioServer('bad', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const sessions = await Promise.all(
          Array.from({ length: 30 }, async () => {
            const c = new HttpClient(gw.url, { token: 'alice-token' });
            await c.initialize();
            return c;
          }),
        );
        const warm = await sessions[0].call('bad__big_answer', { bytes: MiB }, { progressToken: 'warm' });
        if (warm.response?.result?.content?.[0]?.text?.length !== MiB) return breached(`the large answer did not arrive whole: ${JSON.stringify(warm.response).slice(0, 160)}`);
        const before = gw.rssMiB();
        let whole = 0;
        let sse = 0;
        // Three sessions at a time, ten answers each: transient memory stays small, only what is kept grows.
        for (let i = 0; i < sessions.length; i += 3) {
          await Promise.all(
            sessions.slice(i, i + 3).map(async (c) => {
              for (let n = 0; n < 10; n++) {
                const r = await c.call('bad__big_answer', { bytes: MiB }, { progressToken: `p${n}` });
                if (r.response?.result?.content?.[0]?.text?.length === MiB) whole++;
                if (/^id: /m.test(r.text.slice(0, 4096))) sse++;
              }
            }),
          );
        }
        const grown = gw.rssMiB() - before;
        const detail = `300 answers of 1 MiB on SSE streams (${sse} with event ids) from 30 sessions of one client, ${whole} whole: RSS grew ${grown.toFixed(0)} MiB`;
        return gw.alive && whole === 300 && sse === 300 && grown < 120 ? held(detail) : breached(`${gw.alive ? '' : 'the gateway died; '}${detail}`);
      });
    },
  },
  {
    name: 'slow bodies hold sockets forever',
    item: 3,
    async run({ cli }) {
      const yaml = `${TOKENS}limits:\n  requestTimeout: 2s\n  maxConnections: 64\nservers:\n${stdioServer('bad', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const { hostname, port } = new URL(gw.url);
        // 40 with a wrong token, 20 with a valid one, each trickling its body a byte at a time.
        const trickle = (token) =>
          new Promise((resolve) => {
            const s = net.connect(Number(port), hostname);
            let timer;
            s.on('connect', () => {
              s.write(
                `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nAuthorization: Bearer ${token}\r\nContent-Length: 100000\r\n\r\n{`,
              );
              timer = setInterval(() => s.write(' '), 100);
            });
            s.on('error', () => {});
            s.on('close', () => {
              clearInterval(timer);
              resolve();
            });
          });
        const sockets = [...Array.from({ length: 40 }, () => trickle('wrong-token')), ...Array.from({ length: 20 }, () => trickle('alice-token'))];
        const allClosed = Promise.all(sockets).then(() => true);
        const closed = await Promise.race([allClosed, new Promise((r) => setTimeout(() => r(false), 15_000).unref())]);
        const c = new HttpClient(gw.url, { token: 'canary-token' });
        await c.initialize();
        const ok = (await c.call('bad__echo', { text: 'ok' })).response?.result?.content?.[0]?.text === 'ok';
        return closed && ok
          ? held('every trickling socket was closed by the gateway (401 at once, or the 2 s request deadline)')
          : breached(`sockets still open after 15 s: ${!closed}; canary served: ${ok}`);
      });
    },
  },
  {
    name: 'sessions are unbounded',
    item: 4,
    async run({ cli }) {
      const yaml = `limits:\n  maxSessions: 20\nservers:\n${stdioServer('bad', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const clients = [];
        let refused;
        for (let i = 0; i < 25 && !refused; i++) {
          const c = new HttpClient(gw.url);
          try {
            await c.initialize();
            clients.push(c);
          } catch (err) {
            refused = String(err.message);
          }
        }
        const first = await clients[0]?.call('bad__echo', { text: 'ok' });
        const ok = first?.response?.result?.content?.[0]?.text === 'ok';
        return clients.length === 20 && /HTTP 503/.test(refused ?? '') && ok
          ? held('the 21st initialize got 503; open sessions are served')
          : breached(`${clients.length} sessions opened; refusal: ${refused ?? 'none'}`);
      });
    },
  },
  {
    name: 'idle sessions are kept forever',
    item: 4,
    async run({ cli }) {
      const yaml = `limits:\n  sessionIdleTimeout: 1s\nservers:\n${stdioServer('bad', 'hostile.mjs')}`;
      return withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url);
        await c.initialize();
        await gw.waitForStderr(/session closed after being idle/, 15_000).catch(() => undefined);
        const r = await c.call('bad__echo', { text: 'late' });
        return r.status === 404 ? held('an idle session was closed; its next request got 404') : breached(`the idle session still answered (HTTP ${r.status})`);
      });
    },
  },
  {
    name: 'a process per session without a cap',
    item: 4,
    async run({ cli }) {
      const yaml = `limits:\n  maxIsolatedConnections: 3\nservers:\n${stdioServer('own', 'hostile.mjs', [], '    isolation: per-session\n')}`;
      return withGateway(cli, yaml, async (gw) => {
        const answers = [];
        for (let i = 0; i < 5; i++) {
          const c = new HttpClient(gw.url);
          await c.initialize();
          answers.push((await c.call('own__echo', { text: `s${i}` })).response);
        }
        const served = answers.filter((a) => a?.result).length;
        const refused = answers.filter((a) => a?.error?.data?.code === 'LIMIT_EXCEEDED').length;
        return served === 3 && refused === 2 ? held('3 sessions got their own process; the 4th and 5th were refused with LIMIT_EXCEEDED') : breached(`${served} served, ${refused} refused`);
      });
    },
  },
  {
    name: 'status lists every server to any valid token',
    item: 13,
    async run({ cli }) {
      const yaml = `clients:\n  - name: alice\n    token: alice-token\n  - name: ops\n    token: ops-token\n    operator: true\nservers:\n${stdioServer('bad', 'hostile.mjs')}`;
      try {
        return await withGateway(cli, yaml, async (gw) => {
          const status = (token) => rawHttp(gw.url, { method: 'GET', path: '/status', headers: { authorization: `Bearer ${token}` } });
          const [alice, ops] = await Promise.all([status('alice-token'), status('ops-token')]);
          return alice.status === 403 && ops.status === 200 ? held('403 for a client, 200 for the operator') : breached(`client got ${alice.status}, operator ${ops.status}`);
        });
      } catch (err) {
        return breached(`the gateway did not start: ${String(err.message).split('\n').slice(-2).join(' ')}`);
      }
    },
  },
];
