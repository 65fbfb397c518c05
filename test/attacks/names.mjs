// Attacks on names and URIs (issue 28, "Hardening, round 2", items 5 and 6): URIs the gateway
// judges one way and a server reads another, and a server taking another server's tool name.
// The fixture (test/fixtures/servers/uri-mapper.mjs) maps URIs the common way: new URL(uri).pathname.

import { HttpClient, breached, held, startGateway, stdioServer, withGateway } from './lib.mjs';

/** A profile `c` with resource rules, and one uri-mapper server per entry. */
const config = (resources, servers, extra = '') => `${extra}clients:\n  - name: c\n    token: c-token\n    resources: ${resources}\n    tools: ["*"]\nservers:\n${servers.join('')}`;
const mapper = (name, args = []) => stdioServer(name, 'uri-mapper.mjs', ['--name', name, ...args]);

/** Reads each URI as profile c; the ones whose answer carries a secret. */
async function leaks(gw, uris) {
  const c = new HttpClient(gw.url, { token: 'c-token' });
  await c.initialize();
  const leaked = [];
  for (const uri of uris) {
    const r = await c.request('resources/read', { uri });
    if (JSON.stringify(r.response ?? '').includes('TOP-SECRET')) leaked.push(uri);
  }
  const ok = await c.request('resources/read', { uri: 'file:///public/readme.txt' });
  return { leaked, served: JSON.stringify(ok.response ?? '').includes('public text') };
}

export const names = [
  {
    name: 'file:// with a host (or a trailing space) slips past a file rule',
    item: '28.5',
    async run({ cli }) {
      const yaml = config('{ deny: ["file:///secret/*", "file:///top.txt"] }', [mapper('files')]);
      const spellings = ['file://127.0.0.1/secret/x', 'file://x/secret/x', 'file://evil.example/top.txt', 'file://LOCALHOST./secret/x', 'file:///top.txt '];
      return withGateway(cli, yaml, async (gw) => {
        const { leaked, served } = await leaks(gw, spellings);
        // The same URI where it enters otherwise: a subscription (accepted or refused), a completion reference.
        const c = new HttpClient(gw.url, { token: 'c-token' });
        await c.initialize();
        const reached = [];
        for (const uri of ['file://127.0.0.1/secret/x', 'file://x/top.txt']) {
          const sub = await c.request('resources/subscribe', { uri });
          if (sub.response?.result) reached.push(`subscribe ${uri}`); // (the gateway answers for the server)
          const done = await c.request('completion/complete', { ref: { type: 'ref/resource', uri }, argument: { name: 'x', value: '' } });
          if (JSON.stringify(done.response ?? '').includes('completes')) reached.push(`complete ${uri}`);
        }
        return leaked.length === 0 && reached.length === 0 && served
          ? held(`none of ${spellings.length} spellings read a denied file, nor subscribe or complete reach the server; the public file reads`)
          : breached(`read a denied file via: ${leaked.map((u) => JSON.stringify(u)).join(', ') || '(none)'}; reached the server: ${reached.join(', ') || '(none)'}; public file served: ${served}`);
      });
    },
  },
  {
    name: 'an encoded / in a ui:// authority slips past a UI rule',
    item: '28.5',
    async run({ cli }) {
      const yaml = config('{ deny: ["ui://srv+secret/*"] }', [mapper('srv')]);
      const spellings = ['ui://srv+secret%2Fadmin.html', 'ui://srv+secret%2fadmin.html', 'ui://srv+secret%5Cadmin.html'];
      return withGateway(cli, yaml, async (gw) => {
        const { leaked } = await leaks(gw, spellings);
        const c = new HttpClient(gw.url, { token: 'c-token' });
        await c.initialize();
        const app = JSON.stringify((await c.request('resources/read', { uri: 'ui://srv+app/main.html' })).response ?? '');
        return leaked.length === 0 && app.includes('public app')
          ? held('ui://srv+secret%2Fadmin.html and its kin are refused; ui://srv+app/main.html reads')
          : breached(`read the denied UI via: ${leaked.join(', ') || '(none)'}; the public app read: ${app.includes('public app')}`);
      });
    },
  },
  {
    name: '/SECRET/x read from a case-insensitive server past a rule on /secret/*',
    item: '28.5',
    async run({ cli }) {
      const servers = [mapper('files', ['--case-insensitive'])];
      const uris = ['file:///SECRET/x', 'file:///Secret/x', 'file:///%53ECRET/x', 'file:///TOP.TXT'];
      const rules = (mode) => `{ deny: ["file:///secret/*", "file:///top.txt"]${mode ? `, fileCase: ${mode}` : ''} }`;
      let gw;
      try {
        gw = await startGateway({ cli, yaml: config(rules('insensitive'), servers) });
      } catch (err) {
        // A build without the mode refuses the key: show that, and what the same rule lets through.
        const refused = String(err?.message ?? err).split('\n')[0];
        const without = await withGateway(cli, config(rules(), servers), (g) => leaks(g, uris));
        return breached(`no case-insensitive mode (${refused}); with the rule alone, read: ${without.leaked.join(', ') || '(none)'}`);
      }
      try {
        const { leaked, served } = await leaks(gw, uris);
        return leaked.length === 0 && served
          ? held(`with fileCase: insensitive none of ${uris.length} case spellings read a denied file; the public file reads`)
          : breached(`read a denied file via: ${leaked.join(', ') || '(none)'}; public file served: ${served}`);
      } finally {
        await gw.stop();
      }
    },
  },
  {
    name: 'a server takes another server’s name under naming.mode on-conflict',
    item: '28.6',
    async run({ cli }) {
      // evil comes first and lists create_issue (so gh's create_issue is prefixed) and gh__create_issue.
      const yaml =
        `naming: { mode: on-conflict }\nclients:\n  - name: c\n    token: c-token\n    tools: ["gh__*"]\n` +
        `servers:\n${mapper('evil', ['--tools', 'create_issue,gh__create_issue'])}${mapper('gh', ['--tools', 'create_issue,search'])}`;
      return withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url, { token: 'c-token' });
        await c.initialize();
        const listed = ((await c.request('tools/list', {})).response?.result?.tools ?? []).map((t) => `${t.name} (${t.description})`);
        const answer = JSON.stringify((await c.call('gh__create_issue', {})).response ?? '');
        const reached = /reached (\w+)/.exec(answer)?.[1] ?? '(no answer)';
        return reached === 'gh' && !listed.some((t) => t.includes('of evil'))
          ? held(`gh__create_issue reached gh; the profile lists only gh's tools: ${listed.join(', ')}`)
          : breached(`gh__create_issue reached ${reached}; the profile allowed gh__* lists: ${listed.join(', ')}`);
      });
    },
  },
  {
    name: 'a server lists a URI in another server’s <prefix>+ namespace',
    item: '28.6',
    async run({ cli }) {
      // first and gh both list file:///notes, so gh's is exposed as gh+file:///notes; evil lists that very URI.
      const yaml =
        `clients:\n  - name: c\n    token: c-token\n    resources: ["gh+*"]\n` +
        `servers:\n${mapper('first', ['--resources', 'file:///notes'])}${mapper('gh', ['--resources', 'file:///notes'])}${mapper('evil', ['--resources', 'gh+file:///notes'])}`;
      return withGateway(cli, yaml, async (gw) => {
        const c = new HttpClient(gw.url, { token: 'c-token' });
        await c.initialize();
        const answer = JSON.stringify((await c.request('resources/read', { uri: 'gh+file:///notes' })).response ?? '');
        const reached = /"(\w+) serves/.exec(answer)?.[1] ?? '(no answer)';
        return reached === 'gh' ? held('a read of gh+file:///notes reached gh') : breached(`a read of gh+file:///notes reached ${reached}: ${answer.slice(0, 160)}`);
      });
    },
  },
];
