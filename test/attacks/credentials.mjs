// Attacks on per-user credentials (issue 33): one user getting, planting or starving another's
// credential or connection through the connect pages, the links, the callback, headers, the pool,
// or reading one in what the gateway writes. Each runs against the built gateway with real
// authorization servers and Debian's Chromium (test/attacks/per-user-setup.mjs).

import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { walkConnectPage } from '../fixtures/oauth/connect-browser.mjs';
import { breached, held, messagesOf, rawHttp } from './lib.mjs';
import { linkOfCall, perUserStage } from './per-user-setup.mjs';

const CAROL_KEY = 'carol-key-9d1f2e7a5b3c';
const ALICE_KEY = 'alice-key-4b8e1c0d6f2a';
const BOB_KEY = 'bob-key-7c3a9e5f1d0b';
const labels = { [CAROL_KEY]: 'carol', [ALICE_KEY]: 'alice', [BOB_KEY]: 'bob' };
/** Carol connected first: the per-user server's tools are listed with her key, so others have a tool to call. */
const carolFirst = (...servers) => servers.map((s) => ['carol', s, { API_KEY: CAROL_KEY }]);

/** Runs `body` on a stage and closes it whatever happens. */
async function onStage(options, body) {
  const stage = await perUserStage(options);
  try {
    return await body(stage);
  } finally {
    await stage.close();
  }
}

export const credentials = [
  {
    name: "bob replays alice's connect link",
    item: 33,
    // Expectation: the page sees bob log in, not alice, and refuses (403); nothing is stored for either.
    async run({ cli }) {
      return onStage({ cli, seed: carolFirst('keyed'), labels }, async (s) => {
        const alice = await s.clientAs('alice');
        const { url, answer } = await linkOfCall(alice, 'keyed__whoami');
        if (!url) return breached(`alice's call did not answer -32042 with a link: ${answer}`);
        s.as1.loginAccount = 'bob'; // bob is at the keyboard of his own browser, whatever the link hints
        const visit = await walkConnectPage(await s.browserOf(), url, { secrets: { API_KEY: BOB_KEY } });
        const pairs = (await s.pairs()).filter((p) => !p.startsWith('carol/'));
        if (pairs.length > 0) return breached(`bob's visit to alice's link stored ${pairs.join(', ')}`);
        if (visit.status < 400) return breached(`the page did not refuse bob (status ${visit.status}, "${visit.text.trim().slice(0, 80)}")`);
        const retry = await alice.call('keyed__whoami');
        if (JSON.stringify(retry.response).includes('key:bob')) return breached("alice's next call went out with bob's key");
        return held(`bob's browser got ${visit.status} at alice's link; nothing stored for alice or bob`);
      });
    },
  },
  {
    name: 'a connect link after expiry',
    item: 33,
    // Expectation: alice's own link, opened by alice after its lifetime (linkTtl 1s here), is refused; nothing is stored.
    async run({ cli }) {
      return onStage({ cli, seed: carolFirst('keyed'), labels, credentials: { linkTtl: '1s' } }, async (s) => {
        const alice = await s.clientAs('alice');
        const { url, answer } = await linkOfCall(alice, 'keyed__whoami');
        if (!url) return breached(`alice's call did not answer -32042 with a link: ${answer}`);
        // The gateway's clock is its own process's: the only way past the link's lifetime is time.
        await delay(1500);
        s.as1.loginAccount = 'alice';
        const visit = await walkConnectPage(await s.browserOf(), url, { secrets: { API_KEY: ALICE_KEY } });
        const pairs = (await s.pairs()).filter((p) => !p.startsWith('carol/'));
        if (pairs.length > 0) return breached(`an expired link stored ${pairs.join(', ')}`);
        if (visit.status < 400) return breached(`the expired link's page did not refuse (status ${visit.status}, "${visit.text.trim().slice(0, 80)}")`);
        return held(`the expired link got ${visit.status}; nothing stored`);
      });
    },
  },
  {
    name: 'a forged state on the connect callback',
    item: 33,
    // Expectation: a callback with a changed or missing state is refused; a genuine callback
    // opened in another person's browser stores nothing for that person (login CSRF both ways).
    async run({ cli }) {
      return onStage({ cli, notes: true }, async (s) => {
        const callback = `${s.publicUrl}/connect/callback`;
        const aliceBrowser = await s.browserOf();
        const bobBrowser = await s.browserOf();
        // The callback from AS2 (the one that would store tokens; `iss` names the AS, RFC 9207),
        // not the gateway login's at AS1 before it: held on to, not loaded.
        const fromAs2 = (u) => u.startsWith(callback) && new URL(u).searchParams.get('iss') === s.as2.issuer;
        const capture = async (user, browser) => {
          s.as1.loginAccount = user;
          s.as2.loginAccount = user;
          const walk = await walkConnectPage(browser, `${s.publicUrl}/connect/notes`, { stopAt: fromAs2 });
          return new URL(walk.stoppedAt);
        };
        const ofAlice = await capture('alice', aliceBrowser);
        const ofBob = await capture('bob', bobBrowser);
        const state = ofAlice.searchParams.get('state');
        if (!state) return breached(`the captured callback carries no state: ${ofAlice.pathname}${ofAlice.search.replace(/code=[^&]*/, 'code=…')}`);
        const tampered = new URL(ofAlice);
        tampered.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
        const stateless = new URL(ofAlice);
        stateless.searchParams.delete('state');
        const refused = [];
        for (const [what, url] of [
          ['a changed state', tampered],
          ['no state', stateless],
        ]) {
          const visit = await walkConnectPage(aliceBrowser, url.href);
          if (visit.status < 400) return breached(`${what} on the callback was not refused (status ${visit.status})`);
          refused.push(`${what}: ${visit.status}`);
        }
        await walkConnectPage(aliceBrowser, ofBob.href); // bob's code, planted in alice's browser
        if ((await s.pairs()).some((p) => p.startsWith('alice/'))) return breached("bob's callback opened in alice's browser stored a credential for alice");
        await walkConnectPage(bobBrowser, ofAlice.href); // alice's code, replayed in bob's browser
        if ((await s.pairs()).some((p) => p.startsWith('bob/'))) return breached("alice's callback opened in bob's browser stored a credential for bob");
        return held(`${refused.join('; ')}; swapped callbacks stored nothing for the browser's person (store: ${(await s.pairs()).join(', ') || 'empty'})`);
      });
    },
  },
  {
    name: 'a user id in a header',
    item: 33,
    // Expectation: bob's client claiming to be alice in every user header a proxy might set still acts as bob: alice's key is never used for his call.
    async run({ cli }) {
      return onStage({ cli, seed: [['alice', 'keyed', { API_KEY: ALICE_KEY }]], labels }, async (s) => {
        const bob = await s.clientAs('bob');
        const spoof = {
          'x-user': 'alice',
          'x-forwarded-user': 'alice',
          'x-remote-user': 'alice',
          'remote-user': 'alice',
          'x-auth-request-user': 'alice',
          'x-forwarded-preferred-username': 'alice',
          'mcp-user': 'alice',
          'x-mcp-user': 'alice',
        };
        const headers = bob.headers.bind(bob);
        bob.headers = (extra = {}) => ({ ...headers(extra), ...spoof });
        const before = s.keyed.callers.length;
        const r = await bob.call('keyed__whoami');
        // The same through the stateless revision (2026-07-28): no session, the user from each request's token alone.
        const modern = await rawHttp(bob.url, {
          headers: {
            ...spoof,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${bob.token}`,
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'keyed__whoami',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: { name: 'keyed__whoami', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
          }),
        });
        const text = JSON.stringify(r.response ?? r.text) + modern.text;
        const used = s.keyed.callers.slice(before);
        if (text.includes('key:alice') || used.includes('key:alice')) return breached(`bob's calls with user headers ran with alice's key (${used.join(', ')})`);
        const stateless = messagesOf(modern).at(-1);
        return held(
          `bob's calls acted as bob: 2025 ${r.response?.error ? `error ${r.response.error.code}` : text.slice(0, 60)}, 2026 ${stateless?.error ? `error ${stateless.error.code}` : JSON.stringify(stateless?.result ?? modern.status).slice(0, 60)}; keys used: ${used.join(', ') || 'none'}`,
        );
      });
    },
  },
  {
    name: 'one user fills the connection pool',
    item: 33,
    // Expectation: with connections perUser 2 and total 3, alice holding calls on three per-user
    // servers keeps at most 2 connections; bob's call still gets one and answers while hers are held.
    async run({ cli }) {
      const servers = ['keyed-a', 'keyed-b', 'keyed-c'];
      const seed = [...servers.map((n) => ['alice', n, { API_KEY: ALICE_KEY }]), ['bob', 'keyed-a', { API_KEY: BOB_KEY }]];
      return onStage({ cli, keyedNames: servers, seed, labels, credentials: { connections: { perUser: 2, total: 3 } } }, async (s) => {
        const alice = await s.clientAs('alice');
        const calls = servers.map((n) => alice.call(`${n}__hold`));
        const timeout = (ms, what) => delay(ms).then(() => Promise.reject(new Error(`timed out: ${what}`)));
        try {
          await Promise.race([s.keyed.whenHolding(2), timeout(15_000, 'two of alice’s calls reaching the server')]);
          // Her third is either refused (an answer comes back while two are held) or reaches the server too.
          const third = await Promise.race([
            Promise.any(calls).then((r) => `refused: ${r.response?.error?.message ?? JSON.stringify(r.response).slice(0, 80)}`),
            s.keyed.whenHolding(3).then(() => 'reached the server'),
            delay(5000).then(() => 'was neither refused nor sent within 5 s'),
          ]);
          const bob = await s.clientAs('bob');
          const answer = await Promise.race([bob.call('keyed-a__whoami'), timeout(15_000, "bob's call")]);
          const text = answer.response?.result?.content?.[0]?.text;
          if (text !== 'key:bob') return breached(`bob's call got no connection while alice held ${s.keyed.holding} calls (her third ${third}): ${JSON.stringify(answer.response).slice(0, 160)}`);
          return held(`alice held ${s.keyed.holding} calls, her third ${third}; bob's call answered ${text}`);
        } catch (err) {
          return breached(String(err.message));
        } finally {
          s.keyed.release();
          await Promise.allSettled(calls);
        }
      });
    },
  },
  {
    name: 'a per-user secret in the logs',
    item: 33,
    // Expectation: after OAuth and secret connects by the pages and calls, at debug level, no
    // token or secret is in the gateway's stderr, the audit file, /metrics, or in clear in the credentials file.
    async run({ cli }) {
      return onStage({ cli, notes: true, seed: carolFirst('keyed'), labels, env: { SWITCHBOARD_LOG_LEVEL: 'debug' } }, async (s) => {
        const aliceBrowser = await s.browserOf();
        s.as1.loginAccount = 'alice';
        s.as2.loginAccount = 'alice';
        const oauth = await walkConnectPage(aliceBrowser, `${s.publicUrl}/connect/notes`);
        const secret = await walkConnectPage(aliceBrowser, `${s.publicUrl}/connect/keyed`, { secrets: { API_KEY: ALICE_KEY } });
        const bob = await s.clientAs('bob');
        const { url } = await linkOfCall(bob, 'keyed__whoami');
        s.as1.loginAccount = 'bob';
        if (url) await walkConnectPage(await s.browserOf(), url, { secrets: { API_KEY: BOB_KEY } });
        const alice = await s.clientAs('alice');
        await alice.call('keyed__whoami');
        await bob.call('keyed__whoami');
        await alice.call('notes__whoami');
        const pairs = await s.pairs();
        for (const need of ['alice/keyed', 'alice/notes', 'bob/keyed']) {
          if (!pairs.includes(need))
            return breached(`the connects did not happen (no ${need}; oauth page ${oauth.status}, secret page ${secret.status}, bob's link ${url ? 'given' : 'missing'}), so nothing was tested`);
        }
        const secrets = [...(await s.heldSecrets()), ...s.clientTokens];
        const scrape = await fetch(`${s.publicUrl}/metrics`, { headers: { authorization: `Bearer ${s.opsToken}` } });
        if (scrape.status !== 200) return breached(`/metrics answered ${scrape.status} to the operator, so it was not scanned`);
        const metrics = await scrape.text();
        const places = { stderr: s.gw.lines.join('\n'), audit: s.audit(), metrics, 'credentials file': readFileSync(s.credentialsFile, 'utf8') };
        for (const [where, text] of Object.entries(places)) {
          const found = secrets.filter((x) => text.includes(x));
          if (found.length > 0) return breached(`${found.length} secret(s) in the ${where} (one begins ${found[0].slice(0, 6)}…)`);
        }
        return held(`${secrets.length} secrets and tokens, none in ${Object.keys(places).join(', ')} (${s.gw.lines.length} log lines at debug)`);
      });
    },
  },
];
