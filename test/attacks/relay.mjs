// Attacks on what the gateway relays on a client's behalf (issue "Hardening, round 2", items 4
// and 7): resource subscriptions without a bound, and values in servers' answers (completions,
// links, embedded resources, read contents) that name resources the client's profile denies.

import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { HttpClient, breached, held, rawHttp, stdioServer, withGateway } from './lib.mjs';

const SECRET = 'file:///secret/keys.txt';
const PUBLIC = 'file:///public/readme.txt';
/** alice may read anything but the secret folder; the canary is another client. */
const PROFILES = `clients:
  - name: alice
    token: alice-token
    resources: { deny: ["file:///secret/*"] }
  - name: canary
    token: canary-token
`;
const YAML = `${PROFILES}servers:\n${stdioServer('rel', 'relay.mjs')}`;
const DEFAULT_PER_SESSION = 1000;
const DEFAULT_TOTAL = 10_000;

async function alice(gw) {
  const c = new HttpClient(gw.url, { token: 'alice-token' });
  await c.initialize();
  return c;
}

/** What the fixture server was asked to hold (its own count). */
async function serverStats(client) {
  const r = await client.call('rel__stats');
  return JSON.parse(r.response?.result?.content?.[0]?.text ?? '{}');
}

/** The gateway's resident memory now, in MiB. */
const rssMiB = (gw) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${gw.pid}/status`, 'utf8'))[1]) / 1024;

/** Whether any text of `value` names the secret file (its URI, its path, or its contents). */
const namesSecret = (value) => /secret\/keys\.txt|SECRET-KEY-MATERIAL/.test(JSON.stringify(value));

/**
 * Opens a stateless (2026-07-28) subscriptions/listen as `token` on its own HTTP stream; resolves
 * with its first message (the acknowledgement or the refusal) and a close().
 */
function openListen(url, token, id, uris) {
  const VERSION = '2026-07-28';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: uris }, _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': VERSION,
    'mcp-method': 'subscriptions/listen',
  };
  let req;
  const first = new Promise((resolve, reject) => {
    req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
        const line = text.split('\n').find((l) => (l.startsWith('data: ') && l.length > 6) || l.startsWith('{'));
        if (line) resolve(JSON.parse(line.startsWith('data: ') ? line.slice(6) : line));
      });
      res.on('end', () =>
        resolve(
          text
            ? JSON.parse(
                text
                  .split('\n')
                  .find((l) => l.startsWith('data: ') && l.length > 6)
                  ?.slice(6) ?? text,
              )
            : undefined,
        ),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  return { first, close: () => req.destroy() };
}

export const relay = [
  {
    name: 'subscription storm: 50,000 resources/subscribe from one session',
    item: '28.4',
    async run({ cli }) {
      // The issue saw 50,000 in 10 s take 300 MiB, each forwarded to the server. They are fired
      // as fast as the HTTP face takes them (32 at a time, for at most 6 s), while another client
      // keeps calling its tools.
      return withGateway(cli, YAML, async (gw) => {
        const storm = await alice(gw);
        const canary = new HttpClient(gw.url, { token: 'canary-token' });
        await canary.initialize();
        const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
        const post = (body) =>
          new Promise((resolve) => {
            const req = http.request(gw.url, { method: 'POST', agent, headers: storm.headers() }, (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve({ status: res.statusCode, text }));
              res.on('error', () => resolve({ status: 0, text: '' }));
            });
            req.on('error', () => resolve({ status: 0, text: '' }));
            req.end(body);
          });
        const before = rssMiB(gw);
        const started = Date.now();
        const outcomes = { subscribed: 0, refused: 0, other: 0 };
        let refusal;
        let sent = 0;
        const fire = Array.from({ length: 32 }, async () => {
          while (sent < 50_000 && Date.now() - started < 6000) {
            const i = sent++;
            const r = await post(JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'resources/subscribe', params: { uri: `file:///sub/${i}` } }));
            if (r.status === 200 && r.text.includes('"result"')) outcomes.subscribed++;
            else if (r.text.includes('LIMIT_EXCEEDED')) outcomes.refused++, (refusal ??= r);
            else outcomes.other++;
          }
        });
        let canaryOk = 0;
        const canaryRuns = (async () => {
          for (let i = 0; i < 20; i++) {
            const r = await canary.call('rel__echo', { text: `c${i}` }).catch(() => undefined);
            if (r?.response?.result?.content?.[0]?.text === `c${i}`) canaryOk++;
          }
        })();
        await Promise.all([...fire, canaryRuns]);
        agent.destroy();
        const grew = rssMiB(gw) - before;
        const during = await serverStats(canary);
        // Unsubscribing frees a slot; ending the session frees them all, and the server hears it.
        const freed = await storm.request('resources/unsubscribe', { uri: 'file:///sub/0' });
        const again = await storm.request('resources/subscribe', { uri: 'file:///sub/again' });
        const ended = await rawHttp(gw.url, { method: 'DELETE', headers: storm.headers() });
        const after = JSON.parse((await canary.call('rel__until_held', { count: 0 })).response?.result?.content?.[0]?.text ?? '{}');
        const data = refusal ? JSON.parse(refusal.text).error?.data : undefined;
        const detail = `${sent} sent in ${((Date.now() - started) / 1000).toFixed(1)} s: ${outcomes.subscribed} subscribed, ${outcomes.refused} refused (HTTP ${refusal?.status}, data ${JSON.stringify(data)}), ${outcomes.other} other; the server was asked ${during.subscribes}; RSS +${grew.toFixed(0)} MiB; canary ${canaryOk}/20; after an unsubscribe: ${again.response?.error ? 'refused' : 'subscribed'}; after the session ended (HTTP ${ended.status}) the server holds ${after.held}`;
        const bounded = during.subscribes <= DEFAULT_PER_SESSION && outcomes.subscribed <= DEFAULT_PER_SESSION && outcomes.refused > 0 && data?.limit === 'session';
        const released = freed.response?.result && again.response?.result && after.held === 0;
        return bounded && released && canaryOk === 20 && grew < 64 && gw.alive ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'listen streams multiply resource subscriptions (2026-07-28)',
    item: '28.4',
    async run({ cli }) {
      // A stateless client opens listen streams of 1,000 URIs each, one after the other: past the
      // gateway's total, the next stream is refused before any server hears of it.
      return withGateway(cli, YAML, async (gw) => {
        const streams = [];
        let refusedAt;
        let refusal;
        try {
          for (let s = 0; s < DEFAULT_TOTAL / 1000 + 1; s++) {
            const uris = Array.from({ length: 1000 }, (_, i) => `file:///listen/${s}/${i}`);
            const stream = openListen(gw.url, 'alice-token', s + 1, uris);
            streams.push(stream);
            const first = await stream.first;
            if (first?.error) {
              refusedAt = s;
              refusal = first.error;
              break;
            }
          }
          const canary = new HttpClient(gw.url, { token: 'canary-token' });
          await canary.initialize();
          const stats = await serverStats(canary);
          const detail = `${streams.length} streams of 1000 URIs; ${refusedAt === undefined ? 'none refused' : `stream ${refusedAt + 1} refused: ${refusal.message} (${JSON.stringify(refusal.data)})`}; the server was asked ${stats.subscribes}`;
          return stats.subscribes <= DEFAULT_TOTAL && refusal?.data?.code === 'LIMIT_EXCEEDED' ? held(detail) : breached(detail);
        } finally {
          for (const s of streams) s.close();
        }
      });
    },
  },
  {
    name: 'resource updates keep coming after the profile lost the URI',
    item: '28.7',
    async run({ cli }) {
      // alice subscribes to the public file; a reload then denies file:///public/* to her. The
      // server's next updates about it must not reach her (a marker URI she keeps says when).
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const marker = 'file:///other/marker';
        for (const uri of [PUBLIC, marker]) {
          const r = await c.request('resources/subscribe', { uri });
          if (!r.response?.result) return breached(`could not subscribe to ${uri}: ${JSON.stringify(r.response)}`);
        }
        const stream = c.openStream();
        try {
          const updates = (uri) => stream.messages.filter((m) => m.method === 'notifications/resources/updated' && m.params?.uri === uri).length;
          await c.call('rel__touch', { uri: marker });
          await stream.next((m) => m.params?.uri === marker);
          writeFileSync(path.join(gw.dir, 'switchboard.yaml'), YAML.replace('deny: ["file:///secret/*"]', 'deny: ["file:///secret/*", "file:///public/*"]'));
          process.kill(gw.pid, 'SIGHUP');
          await gw.waitForStderr(/config reloaded/);
          const before = updates(PUBLIC);
          await c.call('rel__touch', { uri: PUBLIC });
          await c.call('rel__touch', { uri: marker });
          await stream.next(() => updates(marker) === 2);
          const read = await c.request('resources/read', { uri: PUBLIC });
          const leaked = updates(PUBLIC) - before;
          // She can still let go of it (and free its slot), though she may no longer read it.
          const dropped = await c.request('resources/unsubscribe', { uri: PUBLIC });
          const detail = `after the reload a read of it is ${read.response?.error ? 'refused' : 'served'}; updates about it that reached alice since: ${leaked}; unsubscribing: ${dropped.response?.error ? dropped.response.error.message : 'done'}`;
          return read.response?.error && leaked === 0 && dropped.response?.result ? held(detail) : breached(detail);
        } finally {
          stream.close();
        }
      });
    },
  },
  {
    name: 'completion/complete on an allowed template names a denied file',
    item: '28.7',
    async run({ cli }) {
      // file:///{path} is listed to alice; her rules deny file:///secret/*. The server completes
      // `path` with both folders' files.
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const r = await c.request('completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: '' } });
        const completion = r.response?.result?.completion;
        const detail = `values ${JSON.stringify(completion?.values)}, total ${completion?.total}`;
        if (!completion) return breached(`no completion: ${JSON.stringify(r.response).slice(0, 200)}`);
        return !namesSecret(completion) && completion.values.includes('public/readme.txt') ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'completion/complete for a prompt argument offers a denied URI',
    item: '28.7',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const r = await c.request('completion/complete', { ref: { type: 'ref/prompt', name: 'rel__show' }, argument: { name: 'file', value: '' } });
        const values = r.response?.result?.completion?.values;
        const detail = `values ${JSON.stringify(values)}`;
        if (!values) return breached(`no completion: ${JSON.stringify(r.response).slice(0, 200)}`);
        return !namesSecret(values) && values.includes(PUBLIC) && values.includes('plain words') ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a tool result links to and embeds a denied resource',
    item: '28.7',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const read = await c.request('resources/read', { uri: SECRET });
        const r = await c.call('rel__links');
        const content = r.response?.result?.content;
        const detail = `a direct read: ${read.response?.error?.message ?? 'served'}; the tool's content: ${JSON.stringify(content?.map((b) => b.uri ?? b.resource?.uri ?? b.type))}`;
        if (!content) return breached(`no result: ${JSON.stringify(r.response).slice(0, 200)}`);
        return read.response?.error && !namesSecret(content) && content.some((b) => b.uri === PUBLIC) ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'resources/read of an allowed file answers a denied file too',
    item: '28.7',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const r = await c.request('resources/read', { uri: PUBLIC });
        const contents = r.response?.result?.contents;
        const detail = `contents ${JSON.stringify(contents?.map((x) => x.uri))}`;
        if (!contents) return breached(`no result: ${JSON.stringify(r.response).slice(0, 200)}`);
        return !namesSecret(contents) && contents.some((x) => x.uri === PUBLIC) ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: "a server's sampling request embeds a denied resource",
    item: '28.7',
    async run({ cli }) {
      // stdio, as alice: the server asks the client's model to summarise a tool result that links
      // and embeds the secret file.
      const yaml = `${PROFILES}stdio:\n  client: alice\nservers:\n${stdioServer('rel', 'relay.mjs')}`;
      return withGateway(
        cli,
        yaml,
        async (gw) => {
          const c = gw.stdio;
          await c.initialize({ sampling: {} });
          const call = c.request('tools/call', { name: 'rel__sample', arguments: {} });
          const asked = await c.next((m) => m.method === 'sampling/createMessage');
          c.send({ jsonrpc: '2.0', id: asked.id, result: { role: 'assistant', content: { type: 'text', text: 'summary' }, model: 'm' } });
          const answered = await call;
          const detail = `the client was asked: ${JSON.stringify(asked.params.messages).slice(0, 300)}; the call answered ${answered.result ? 'a result' : JSON.stringify(answered.error)}`;
          return !namesSecret(asked.params) && JSON.stringify(asked.params).includes('Read.') && answered.result ? held(detail) : breached(detail);
        },
        { mode: 'stdio' },
      );
    },
  },
  {
    name: 'prompts/get embeds a denied resource',
    item: '28.7',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const c = await alice(gw);
        const r = await c.request('prompts/get', { name: 'rel__show' });
        const messages = r.response?.result?.messages;
        const detail = `messages ${JSON.stringify(messages?.map((m) => m.content?.type))}`;
        if (!messages) return breached(`no result: ${JSON.stringify(r.response).slice(0, 200)}`);
        return !namesSecret(messages) && messages.length > 0 ? held(detail) : breached(detail);
      });
    },
  },
];
