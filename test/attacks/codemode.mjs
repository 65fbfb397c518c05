// Attacks on code mode (issue 30): scripts sent to run_code over HTTP that try to leave the sandbox
// (30.1), hold the gateway's memory, time or slots (30.2), reach tools their profile may not call
// (30.3), or starve another client while they compute (30.4). A build without code mode refuses
// the config (catalog.mode: code): that is shown as the finding, not hidden.

import { HttpClient, breached, held, stdioServer, withGateway } from './lib.mjs';

const PROFILES = [
  'clients:',
  '  - name: alice',
  '    token: alice-token',
  '    tools: { allow: ["echo__*"], deny: ["echo__add"] }',
  '  - name: bob',
  '    token: bob-token',
  '    tools: ["inter__*"]',
  '  - name: canary',
  '    token: canary-token',
  '    catalog: { mode: full }',
].join('\n');
const YAML = `catalog:\n  mode: code\n${PROFILES}\nservers:\n${stdioServer('echo', 'echo.mjs', ['--log-calls'])}${stdioServer('inter', 'interactive.mjs')}`;

/** A session of `token`'s profile. */
async function as(gw, token) {
  const c = new HttpClient(gw.url, { token });
  await c.initialize();
  return c;
}

/** run_code: its result (structuredContent, isError, text) or the JSON-RPC error, and how long it took. */
async function run(client, code) {
  const t0 = performance.now();
  const { response } = await client.call('run_code', { code });
  const ms = Math.round(performance.now() - t0);
  if (!response?.result) return { error: response?.error ?? { message: 'no answer' }, ms };
  const r = response.result;
  return { s: r.structuredContent ?? {}, isError: r.isError === true, text: r.content?.[0]?.text ?? '', ms };
}

const kindOf = (r) => r.s?.error?.kind ?? (r.error ? `rpc ${r.error.code}` : 'ok');

/** After an attack the gateway still answers a plain call, and how fast. */
async function stillServes(gw) {
  const canary = await as(gw, 'canary-token');
  const t0 = performance.now();
  const r = await canary.call('echo__echo', { text: 'still here' });
  return { ok: r.response?.result?.content?.[0]?.text === 'still here', ms: Math.round(performance.now() - t0) };
}

const p99 = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
};

export const codemode = [
  {
    name: 'a script climbs constructor.constructor to the host’s Function',
    item: '30.1',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const r = await run(
          alice,
          [
            'const probe = (F) => { try { return F("return [typeof process, typeof require, typeof Buffer, typeof __sb_host, typeof globalThis.process]")().join(","); } catch (e) { return "threw " + e.name; } };',
            'let caught; try { await tools.echo.add({}); } catch (e) { caught = e; }',
            // (tools and console have no prototype at all: nothing to climb.)
            'return [tools.echo.echo, tools.describe, console.log, setTimeout, caught, McpError, Promise.resolve(1), tools, console].map((o) => (o.constructor ? probe(o.constructor.constructor) : "no constructor"));',
          ].join('\n'),
        );
        const results = r.s?.result;
        const clean = Array.isArray(results) && results.length === 9 && results.every((x) => x === 'undefined,undefined,undefined,undefined,undefined' || x === 'no constructor' || /^threw /.test(x));
        const detail = `run: ${kindOf(r)}; what the Function constructor of each object the script can reach sees: ${JSON.stringify(results ?? r.text).slice(0, 200)}`;
        return clean ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script pollutes the gateway’s prototypes through what it returns and sends',
    item: '30.1',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        // Objects with a "__proto__" key (JSON.parse makes them own keys) cross the sandbox as
        // results, arguments and errors; title and annotations would then show in every search hit.
        const bomb = 'JSON.parse(\'{"__proto__": {"title": "POLLUTED", "annotations": {"p": 1}, "isError": true}, "constructor": {"prototype": {"title": "POLLUTED"}}}\')';
        const r = await run(
          alice,
          [
            `const bomb = ${bomb};`,
            'try { await tools.echo.echo(Object.assign(bomb, { text: "x" })); } catch (e) {}',
            'try { await tools.describe(bomb); } catch (e) {}',
            `const err = new McpError(1, "x", ${bomb}); try { throw err; } catch (e) {}`,
            'return [bomb, { nested: [bomb] }];',
          ].join('\n'),
        );
        const s = await alice.call('search_tools', { query: 'echo text', limit: 5 });
        const hits = s.response?.result?.structuredContent?.tools ?? [];
        const polluted = JSON.stringify(hits).includes('POLLUTED') || hits.some((t) => t.annotations?.p === 1);
        const after = await stillServes(gw);
        const detail = `run: ${kindOf(r)}, returned ${String(r.text).slice(0, 120)}; search hits after it: ${hits.map((t) => `${t.name}${t.title ? ` (title ${t.title})` : ''}`).join(', ')}; a plain call after: ${after.ok ? 'ok' : 'failed'}`;
        return !polluted && after.ok && hits.length > 0 ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script reaches the host through import(), require or eval tricks',
    item: '30.1',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const r = await run(
          alice,
          [
            'const out = {};',
            'try { await import("node:fs"); out.import = "loaded"; } catch (e) { out.import = e.name; }',
            'try { out.dynamic = typeof (await eval("import(\\"node:child_process\\")")); } catch (e) { out.dynamic = e.name; }',
            'out.globals = [typeof require, typeof process, typeof module, typeof fetch, typeof Buffer, typeof WebAssembly, typeof SharedArrayBuffer, typeof __sb_host, typeof __sb_config, typeof __sb_run].join(",");',
            'out.indirect = (0, eval)("typeof process + typeof require");',
            'out.fn = new Function("return typeof this.process")();',
            'out.keys = Reflect.ownKeys(globalThis).filter((k) => typeof k === "string" && k.startsWith("__"));',
            'out.host = typeof Object.getOwnPropertyDescriptor(globalThis, "__sb_host");',
            'return out;',
          ].join('\n'),
        );
        const o = r.s?.result ?? {};
        const clean =
          o.import !== 'loaded' &&
          (o.dynamic === 'undefined' || /Error/.test(o.dynamic ?? '')) &&
          o.globals === 'undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined,undefined' &&
          o.indirect === 'undefinedundefined' &&
          o.fn === 'undefined' &&
          Array.isArray(o.keys) &&
          o.keys.length === 0 &&
          o.host === 'undefined';
        const detail = `run: ${kindOf(r)}; ${JSON.stringify(o).slice(0, 300)}`;
        return clean ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'an endless loop in a script holds the event loop',
    item: '30.2',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const loops = [
          'while (true) {}',
          'for (;;) { try { while (true) {} } catch (e) {} finally { continue; } }',
          'const f = () => { try { return f(); } finally { while (true) {} } }; f();',
          'await new Promise(() => { while (true) {} });',
        ];
        const results = await Promise.all(loops.map((code) => run(alice, code)));
        const after = await stillServes(gw);
        const ended = results.every((r) => r.isError && ['slice', 'stack', 'timeout'].includes(kindOf(r)));
        const detail = `${results.map((r) => `${kindOf(r)} in ${r.ms} ms`).join('; ')}; a plain call after: ${after.ok ? `ok in ${after.ms} ms` : 'failed'}`;
        return ended && after.ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a memory bomb in a script grows the gateway',
    item: '30.2',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        await run(alice, 'return 1;');
        const before = gw.peakRssMiB();
        // Twelve at once from one client, each yielding between allocations (the slice limit must
        // not be what ends them): a run may take 64 MiB, a client may run 8 at once.
        const bomb = 'const a = [];\nwhile (true) { for (let i = 0; i < 20; i++) a.push("x".repeat(1 << 20) + a.length); await new Promise((r) => setTimeout(r, 0)); }';
        const typed = 'const a = [];\nwhile (true) { a.push(new Uint8Array(8 << 20)); await new Promise((r) => setTimeout(r, 0)); }';
        const results = await Promise.all(Array.from({ length: 12 }, (_, i) => run(alice, i % 2 ? bomb : typed)));
        const grew = gw.peakRssMiB() - before;
        const after = await stillServes(gw);
        const ran = results.filter((r) => kindOf(r) === 'memory').length;
        const refused = results.filter((r) => r.error?.data?.limit === 'principal').length;
        // At most 8 runs of at most 64 MiB each, plus what the gateway holds meanwhile.
        const bounded = grew < 8 * 64 + 128;
        const detail = `12 bombs at once: ${ran} ended out of memory, ${refused} refused (codeMode.maxRunsPerPrincipal), ${12 - ran - refused} other; gateway peak RSS grew ${grew.toFixed(0)} MiB (8 runs × 64 MiB cap); a plain call after: ${after.ok ? 'ok' : 'failed'}`;
        return ran + refused === 12 && ran <= 8 && bounded && after.ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'deep recursion and deep nesting in a script overflow the gateway’s stack',
    item: '30.2',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const results = await Promise.all(
          [
            run(alice, 'function f(n) { return f(n + 1) + 1; }\nreturn f(0);'),
            run(alice, 'const f = (n) => [f, n].map((g, i) => (i === 0 ? g(n + 1) : g));\nreturn f(0);'),
            // Deep values built without recursion: as a result, and as a nested call's arguments.
            'let o = {};\nfor (let i = 0; i < 100000; i++) o = { o };\nreturn o;',
            'let o = {};\nfor (let i = 0; i < 100000; i++) o = { o };\ntry { await tools.echo.echo({ text: "x", o }); } catch (e) { return [e.code, e.message]; }',
          ].map((x) => (typeof x === 'string' ? run(alice, x) : x)),
        );
        const after = await stillServes(gw);
        const [rec, mapped, deepResult, deepArgs] = results;
        // A deep value ends its own run (or is refused to the script), never the gateway's stack.
        const clean = (r) => r.isError && ['stack', 'result', 'slice', 'memory'].includes(kindOf(r));
        const ok = kindOf(rec) === 'stack' && kindOf(mapped) === 'stack' && clean(deepResult) && (deepArgs.s?.result?.[0] === -32602 || clean(deepArgs));
        const detail = `recursion: ${kindOf(rec)}; recursion through map: ${kindOf(mapped)}; a 100,000-deep result: ${kindOf(deepResult)} (${String(deepResult.s?.error?.message ?? '').slice(0, 60)}); as arguments: ${JSON.stringify(deepArgs.s?.result ?? kindOf(deepArgs)).slice(0, 90)}; a plain call after: ${after.ok ? 'ok' : 'failed'}`;
        return ok && after.ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script floods its servers with nested calls',
    item: '30.2',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const r = await run(alice, 'return await Promise.all(Array.from({ length: 20000 }, (_, i) => tools.echo.echo({ text: "flood-" + i })));');
        const after = await stillServes(gw);
        const seen = gw.lines.filter((l) => /echo saw echo .*flood-/.test(l)).length;
        const ok = kindOf(r) === 'calls' && seen <= 100 && after.ok;
        const detail = `20,000 calls at once: run ${kindOf(r)} in ${r.ms} ms (${String(r.s?.error?.message ?? '').slice(0, 70)}); the server saw ${seen}; a plain call after: ${after.ok ? 'ok' : 'failed'}`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script returns a huge value and floods the console',
    item: '30.2',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const big = await run(alice, 'return Array.from({ length: 3000 }, (_, i) => ({ i, s: "payload-" + i }));');
        const text = await run(alice, 'return "y".repeat(8 << 20);');
        const huge = await run(alice, 'return "y".repeat(40 << 20);');
        const logs = await run(
          alice,
          'for (let i = 0; i < 20000; i++) { console.log("line " + i + " " + "z".repeat(5000)); if (i % 50 === 0) await new Promise((r) => setTimeout(r, 0)); }\nreturn "done";',
        );
        const sizes = [big, text, huge, logs].map((r) => JSON.stringify(r.s).length + r.text.length);
        const cut = (r) => (r.s?.truncated ? 'cut' : kindOf(r));
        // Cut to maxOutputTokens, or (too large for the run's memory even to copy) a failed run: never the whole of it.
        const ok =
          big.s?.truncated === true &&
          text.s?.truncated === true &&
          (huge.s?.truncated === true || huge.isError) &&
          logs.s?.result === 'done' &&
          logs.s.logs.length <= 101 &&
          sizes.every((n) => n < 100_000);
        const detail = `3,000 objects: ${cut(big)}; an 8 MiB string: ${cut(text)}; a 40 MiB string: ${cut(huge)}; 20,000 console lines of 5 KB: ${logs.s?.logs?.length ?? kindOf(logs)} kept; answers ${sizes.join(', ')} characters`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script calls a tool its profile denies',
    item: '30.3',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const r = await run(
          alice,
          [
            'const out = { type: typeof tools.echo.add, bracket: typeof tools["echo"]["add"] };',
            'try { await tools.echo.add({ a: 1, b: 2 }); } catch (e) { out.call = e.name; }',
            'try { await tools.describe("echo.add"); } catch (e) { out.describe = e.code; }',
            'try { await tools.describe("add"); } catch (e) { out.bare = e.code; }',
            'out.search = (await tools.search("add two numbers")).map((h) => h.call);',
            'return out;',
          ].join('\n'),
        );
        const o = r.s?.result ?? {};
        const saw = gw.lines.filter((l) => /echo saw add/.test(l)).length;
        const ok =
          o.type === 'undefined' &&
          o.bracket === 'undefined' &&
          o.call === 'TypeError' &&
          o.describe === -32602 &&
          o.bare === -32602 &&
          Array.isArray(o.search) &&
          !o.search.includes('tools.echo.add') &&
          saw === 0;
        const detail = `run: ${kindOf(r)}; ${JSON.stringify(o).slice(0, 200)}; the server saw ${saw} call(s) of add`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script calls a tool only another profile may call',
    item: '30.3',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const bob = await as(gw, 'bob-token');
        const mine = await run(bob, 'return Object.keys(tools);');
        const r = await run(
          alice,
          [
            'const out = { keys: Object.keys(tools), inter: typeof tools.inter };',
            'try { await tools.inter.bump({}); } catch (e) { out.call = e.name; }',
            'try { await tools.describe("inter.bump"); } catch (e) { out.describe = e.code; }',
            'out.search = (await tools.search("bump the counter")).map((h) => h.call);',
            'return out;',
          ].join('\n'),
        );
        // Bob sees only inter; alice sees echo and not inter, however she asks.
        const o = r.s?.result ?? {};
        const ok =
          JSON.stringify(mine.s?.result) === '["inter"]' &&
          JSON.stringify(o.keys) === '["echo"]' &&
          o.inter === 'undefined' &&
          o.call === 'TypeError' &&
          o.describe === -32602 &&
          Array.isArray(o.search) &&
          !o.search.some((c) => c.startsWith('tools.inter'));
        const detail = `bob's tools: ${JSON.stringify(mine.s?.result)}; alice: ${JSON.stringify(o).slice(0, 200)}`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'a script forges a tool’s name (exposed names, __proto__, the host’s own function)',
    item: '30.3',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const r = await run(
          alice,
          [
            'const out = {};',
            'out.exposed = [typeof tools["echo__add"], typeof tools["echo__echo"], typeof tools["inter__bump"]];',
            'out.proto = [typeof tools.__proto__, typeof tools["__proto__"], typeof tools.echo.__proto__, typeof tools.echo["constructor"]];',
            // The prelude's own plumbing, hijacked: then, JSON, Array methods; the index a tool binds is its own.
            'const seen = [];',
            'const then = Promise.prototype.then;',
            'Promise.prototype.then = function (a, b) { seen.push(typeof this); return then.call(this, a, b); };',
            'JSON.stringify = () => \'{"a":1,"b":2}\';',
            'Array.prototype.map = function () { return ["forged"]; };',
            'try { out.echo = await tools.echo.echo({ text: "forged?" }); } catch (e) { out.echo = e.message; }',
            'Promise.prototype.then = then;',
            'try { out.describe = (await tools.describe("tools.echo.add\\u0000")).call; } catch (e) { out.describe = e.code; }',
            'try { out.frozen = Object.isFrozen(tools) && Object.isFrozen(tools.echo); tools.echo.add = tools.echo.echo; } catch (e) { out.assign = e.name; }',
            'out.after = typeof tools.echo.add;',
            'return out;',
          ].join('\n'),
        );
        const o = r.s?.result ?? {};
        const saw = gw.lines.filter((l) => /echo saw add/.test(l)).length;
        const ok =
          JSON.stringify(o.exposed) === '["undefined","undefined","undefined"]' &&
          JSON.stringify(o.proto) === '["undefined","undefined","undefined","undefined"]' &&
          o.echo === 'forged?' &&
          o.describe === -32602 &&
          o.frozen === true &&
          o.after === 'undefined' &&
          saw === 0;
        const detail = `run: ${kindOf(r)}; ${JSON.stringify(o).slice(0, 260)}; the server saw ${saw} call(s) of add`;
        return ok ? held(detail) : breached(detail);
      });
    },
  },
  {
    name: 'scripts that compute without end starve another profile’s calls',
    item: '30.4',
    async run({ cli }) {
      return withGateway(cli, YAML, async (gw) => {
        const alice = await as(gw, 'alice-token');
        const canary = await as(gw, 'canary-token');
        const timed = async (n) => {
          const samples = [];
          for (let i = 0; i < n; i++) {
            const t0 = performance.now();
            const r = await canary.call('echo__echo', { text: `c${i}` });
            samples.push(r.response?.result?.content?.[0]?.text === `c${i}` ? performance.now() - t0 : Infinity);
          }
          return samples;
        };
        await run(alice, 'return 1;');
        const calm = p99(await timed(30));
        // Four runs that compute 90 ms (under the 100 ms slice) between yields for 4 s, and a
        // stream of endless loops, four at a time, each ended by its slice.
        const burn = 'const end = Date.now() + 4000;\nwhile (Date.now() < end) { const t = Date.now(); while (Date.now() - t < 90) {} await new Promise((r) => setTimeout(r, 0)); }\nreturn "burnt";';
        let attacking = true;
        const burners = Promise.all([1, 2, 3, 4].map(() => run(alice, burn)));
        const loopers = Promise.all(
          [1, 2, 3, 4].map(async () => {
            let n = 0;
            while (attacking) await run(alice, 'while (true) {}'), n++;
            return n;
          }),
        );
        // Until the burners are computing.
        await new Promise((r) => setTimeout(r, 300));
        const samples = await timed(60);
        attacking = false;
        const burnt = await burners;
        const loops = (await loopers).reduce((a, b) => a + b, 0);
        const under = p99(samples);
        const bound = 400;
        const detail = `canary p99 ${calm.toFixed(0)} ms calm, ${under.toFixed(0)} ms while 4 scripts burnt 90 ms slices (${burnt.map(kindOf).join(', ')}) and ${loops} endless loops ran (bound ${bound} ms; the slice is 100 ms)`;
        return under <= bound ? held(detail) : breached(detail);
      });
    },
  },
];
