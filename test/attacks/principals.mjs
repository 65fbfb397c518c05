// Attacks in which one principal (one token, or one address without a token) takes a resource the
// HTTP face shares between clients (issue 28, item 3): sessions, TCP slots held by streams or by
// trickling headers, calls in flight. Each is run with only the global limits an older build knows,
// so that build shows the lock-out itself; a canary of another profile must keep being served.

import http from 'node:http';
import net from 'node:net';
import { HttpClient, breached, held, stdioServer, withGateway } from './lib.mjs';

const TOKENS = `clients:\n  - name: alice\n    token: alice-token\n  - name: canary\n    token: canary-token\n`;
const CALM = `servers:\n${stdioServer('calm', 'sleepy.mjs')}`;

/** A ping on the client's session, each on a new connection (rawHttp has no agent); true when answered. */
async function pinged(client, ms = 5000) {
  const answer = client.request('ping', {}).catch(() => undefined);
  const timeout = new Promise((resolve) => setTimeout(resolve, ms).unref());
  const r = await Promise.race([answer, timeout]);
  return r?.status === 200 && r.response?.result !== undefined;
}

/** Initializes, or undefined when refused or cut off (the refusal's status in `why`). */
async function tryInitialize(client, why = []) {
  try {
    await client.initialize();
    return client;
  } catch (err) {
    why.push(String(err.message).slice(0, 60));
    return undefined;
  }
}

/**
 * A never-ending GET stream on the client's session, on its own connection. Resolves true once
 * the gateway answered 200 (the stream is up), false if refused or cut before; `onClose` is called
 * when an open stream ends.
 */
function getStream(client, onClose) {
  return new Promise((resolve) => {
    const req = http.request(new URL(client.url), { method: 'GET', headers: client.headers({ accept: 'text/event-stream' }), agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(false);
      }
      resolve(true);
      res.resume();
      res.on('close', onClose);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** p99 of latencies (ms); a call that failed counts as never answered. */
function p99(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

async function timedEchoes(client, n, tag) {
  const samples = [];
  let failed = 0;
  let firstError;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await client.call('calm__echo', { text: `${tag}${i}` }).catch((e) => ({ error: String(e) }));
    const ok = r?.response?.result?.content?.[0]?.text === `${tag}${i}`;
    if (!ok) {
      failed++;
      firstError ??= JSON.stringify(r?.response?.error ?? r).slice(0, 120);
    }
    samples.push(ok ? performance.now() - t0 : Infinity);
  }
  return { p99: p99(samples), failed, firstError };
}

/** `count` POSTs of `body` written at once on one socket (HTTP/1.1 pipelining); resolves when it closes. */
function pipelined(url, headers, body, count) {
  const { hostname, port } = new URL(url);
  const head = Object.entries({ ...headers, host: `${hostname}:${port}`, 'content-length': Buffer.byteLength(body) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const one = `POST ${new URL(url).pathname} HTTP/1.1\r\n${head}\r\n${body}`;
  const socket = net.connect(Number(port), hostname);
  socket.on('connect', () => socket.write(one.repeat(count)));
  socket.on('error', () => {});
  socket.resume();
  return socket;
}

/** Resolves once `ready()` holds: checked now, after each chunk of the gateway's log, and as each of `events` settles. */
function until(gw, ready, events = []) {
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      gw.child.stderr.off('data', later);
      resolve();
    };
    const later = () => setImmediate(check);
    gw.child.stderr.on('data', later);
    for (const e of events) e.then(later, later);
    check();
  });
}

export const principals = [
  {
    name: 'one token fills every session slot and keeps them alive with pings',
    item: '28.3',
    async run({ cli }) {
      const yaml = `${TOKENS}limits:\n  maxSessions: 20\n${CALM}`;
      return withGateway(cli, yaml, async (gw) => {
        const t0 = Date.now();
        const alice = [];
        const refusals = [];
        for (let i = 0; i < 30 && refusals.length === 0; i++) {
          const c = await tryInitialize(new HttpClient(gw.url, { token: 'alice-token' }), refusals);
          if (c) alice.push(c);
        }
        const filled = Date.now() - t0;
        // Pings keep every session busy-looking; a session the gateway ended is opened again.
        let pinging = true;
        let reopened = 0;
        const pinger = (async () => {
          while (pinging) {
            for (let i = 0; i < alice.length && pinging; i++) {
              const r = await alice[i].request('ping', {}).catch(() => undefined);
              if (r?.status === 404) {
                const again = await tryInitialize(new HttpClient(gw.url, { token: 'alice-token' }));
                if (again) (alice[i] = again), reopened++;
              }
            }
          }
        })();
        await Promise.all(alice.map((c) => c.request('ping', {})));
        const why = [];
        const canary = await tryInitialize(new HttpClient(gw.url, { token: 'canary-token' }), why);
        const call = canary ? await canary.call('calm__echo', { text: 'ok' }) : undefined;
        const ok = call?.response?.result?.content?.[0]?.text === 'ok';
        pinging = false;
        await pinger;
        const detail = `alice opened ${alice.length} sessions in ${filled} ms (then: ${refusals[0] ?? 'no refusal'}) and pinged them; canary initialize: ${canary ? 'ok' : why[0]}; canary call: ${ok ? 'ok' : 'failed'}; alice re-opened ${reopened}`;
        return canary && ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'one token holds a never-ending GET stream on every TCP slot',
    item: '28.3',
    async run({ cli }) {
      const yaml = `${TOKENS}limits:\n  maxConnections: 40\n${CALM}`;
      return withGateway(cli, yaml, async (gw) => {
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await canary.initialize();
        // 60 sessions, then a stream on each: more than the 40 slots. A stream that ends is
        // opened again a little later, so the pressure never lets up.
        const alice = [];
        for (let i = 0; i < 60; i++) {
          const c = await tryInitialize(new HttpClient(gw.url, { token: 'alice-token' }));
          if (c) alice.push(c);
        }
        let attacking = true;
        let open = 0;
        let shed = 0;
        const hold = async (c) => {
          while (attacking) {
            let closed;
            const ended = new Promise((resolve) => (closed = resolve));
            if (await getStream(c, () => closed())) {
              open++;
              await ended;
              open--;
              shed++;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
        };
        const holders = alice.map(hold);
        // Until the slots are taken: 40 streams, or every try made.
        for (let i = 0; i < 100 && open < 40; i++) await new Promise((r) => setTimeout(r, 50));
        const atStart = open;
        const shedBefore = shed;
        let answered = 0;
        for (let i = 0; i < 50; i++) if (await pinged(canary)) answered++;
        const shedDuring = shed - shedBefore;
        attacking = false;
        await gw.stop();
        await Promise.all(holders);
        const detail = `alice: ${alice.length} sessions, ${atStart} streams open when the canary began, ${shedDuring} of them ended by the gateway while it pinged; canary answered ${answered}/50 pings`;
        return answered === 50 ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'connections without a token trickle header lines on every TCP slot',
    item: '28.3',
    async run({ cli }) {
      const yaml = `${TOKENS}limits:\n  maxConnections: 64\n${CALM}`;
      return withGateway(cli, yaml, async (gw) => {
        const { hostname, port } = new URL(gw.url);
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await canary.initialize();
        // 120 sockets from four other loopback addresses, each sending a header line every
        // 500 ms and never the blank line; one the gateway closes is opened again 250 ms later.
        let attacking = true;
        let cut = 0;
        let firstCut;
        const cutSeen = new Promise((resolve) => (firstCut = resolve));
        const trickle = (from) => {
          if (!attacking) return;
          const s = net.connect({ port: Number(port), host: hostname, localAddress: from });
          let timer;
          s.on('connect', () => {
            s.write(`POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
            let n = 0;
            timer = setInterval(() => s.write(`X-Trickle-${n++}: x\r\n`), 500);
          });
          s.on('error', () => {});
          s.on('close', () => {
            clearInterval(timer);
            cut++;
            firstCut();
            setTimeout(() => trickle(from), 250).unref();
          });
        };
        for (let i = 0; i < 120; i++) trickle(`127.0.0.${2 + (i % 4)}`);
        // The gateway cut a first socket: every slot is taken.
        await Promise.race([cutSeen, new Promise((r) => setTimeout(r, 5000).unref())]);
        // Pings spread over 3 s: the trickling sockets live long enough to be seen as slow.
        let answered = 0;
        for (let i = 0; i < 100; i++) {
          if (await pinged(canary)) answered++;
          await new Promise((r) => setTimeout(r, 30));
        }
        attacking = false;
        const detail = `120 trickling sockets (${cut} cut by the gateway and opened again); canary answered ${answered}/100 pings`;
        return answered === 100 ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'one token floods calls in flight across many sessions',
    item: '28.3',
    async run({ cli }) {
      const yaml = `${TOKENS}${CALM}`;
      return withGateway(cli, yaml, async (gw) => {
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await canary.initialize();
        await timedEchoes(canary, 20, 'w'); // warm-up
        const quiet = await timedEchoes(canary, 100, 'q');
        // 10 sessions, each with 32 slow calls pipelined on one socket: 320 calls in flight at
        // once, more than the 256 one server connection takes by default.
        const sessions = [];
        for (let i = 0; i < 10; i++) {
          const c = new HttpClient(gw.url, { token: 'alice-token' });
          if (await tryInitialize(c)) sessions.push(c);
        }
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'calm__sleep', arguments: { ms: 4000 } } });
        const sockets = sessions.map((c) => pipelined(gw.url, c.headers(), body, 32));
        // Once a call of the flood was refused, the flood holds all it can.
        const full = await gw.waitForStderr(/LIMIT_EXCEEDED/, 5000).then(
          () => true,
          () => false,
        );
        const flood = await timedEchoes(canary, 100, 'f');
        for (const s of sockets) s.destroy();
        const floor = Math.max(quiet.p99, 5);
        const ratio = flood.p99 / floor;
        const detail = `canary p99 quiet ${quiet.p99.toFixed(1)} ms, under the flood ${Number.isFinite(flood.p99) ? `${flood.p99.toFixed(1)} ms` : 'never (refused)'} (×${Number.isFinite(ratio) ? ratio.toFixed(2) : '∞'}); ${flood.failed}/100 failed${flood.firstError ? ` (${flood.firstError})` : ''}; flood ${full ? 'refused in part' : 'never refused'}`;
        return flood.failed === 0 && ratio <= 4 ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'one token holds every byte the gateway may have in flight',
    item: '28.3',
    async run({ cli }) {
      const yaml = `${TOKENS}limits:\n  totalBytesInFlight: 4MiB\n  sessionBytesInFlight: 2MiB\n${CALM}`;
      return withGateway(cli, yaml, async (gw) => {
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await canary.initialize();
        // Two sessions, each with one slow call whose body is as large as the session may hold:
        // together 40 bytes short of what the whole gateway may hold.
        const body = (size) => {
          const head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calm__sleep","arguments":{"ms":4000,"pad":"';
          const tail = '"}}}';
          return head + 'x'.repeat(size - head.length - tail.length) + tail;
        };
        const a = new HttpClient(gw.url, { token: 'alice-token' });
        const b = new HttpClient(gw.url, { token: 'alice-token' });
        await Promise.all([a.initialize(), b.initialize()]);
        const answered = [];
        const holds = [a.post(body(2 * 1024 * 1024)), b.post(body(2 * 1024 * 1024 - 40))].map((p) => p.then((r) => (answered.push(r.status), r)));
        // Each of alice's calls is at the server, or already answered (refused).
        const started = () => gw.lines.filter((l) => /sleep started/.test(l)).length;
        await until(gw, () => answered.length + started() >= 2, holds);
        const r = await canary.call('calm__echo', { text: 'ok' });
        const ok = r.response?.result?.content?.[0]?.text === 'ok';
        const alice = (await Promise.all(holds)).map((x) => x.status);
        const detail = `alice's two calls of 2 MiB: HTTP ${alice.join(', ')}; the canary's call: HTTP ${r.status}${ok ? ', answered' : ` (${r.text.slice(0, 140)})`}`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
];
