// The soak's --replicas mode (issue 32): three gateways on one redis-server behind
// deploy/nginx.conf as shipped (round robin, no affinity), sessions calling their echo servers
// through nginx while a random replica is SIGKILLed (its whole process group, as a pod dies) and
// started again on its port. Every answer must come back once with its payload; a call may fail
// only when it was in flight on the replica killed (nginx's 502 or a reset, within the kill's
// window). Lost or duplicated: 0 each, or the run fails.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { percentile } from './load.mjs';
import { startNginx, startRedis, startReplicaOn } from './cluster.mjs';
import { ECHO, OUT_DIR, freePort } from './paths.mjs';
import { sleep, stopAll } from './procs.mjs';
import { Ledger, SoakHttpSession } from './soak-client.mjs';

/** A ledger that also notes when each transport failure happened, to tell it from a kill's. */
class TimedLedger extends Ledger {
  failures = [];
  transportError(key, why) {
    this.failures.push({ key, why, at: Date.now() });
    super.transportError(key, why);
  }
}

export async function soakReplicas({ replicas, calls, sessions, concurrency, sessionCalls, servers, killEvery: [minMs, maxMs], gateway, requestTimeoutMs, quick, log }) {
  if (replicas !== 3) throw new Error('--replicas: deploy/nginx.conf lists three replicas; only 3 is supported');
  const redis = await startRedis();
  const names = Array.from({ length: servers }, (_, i) => `echo-${i}`);
  const file = join(OUT_DIR, `soak-${process.pid}-replicas.yaml`);
  const lines = [
    '# written by bench/soak.mjs --replicas',
    `state: { redis: ${JSON.stringify(redis.url)} }`,
    'listen: { stateKey: "soak: one state key for the three replicas" }',
    // Every soak client reaches the replicas from nginx's address: one principal, whose shares
    // (split between the replicas alive, and more of them count while a killed one's heartbeat
    // lasts) the soak's 64 calls in flight would pass. The soak judges answers, not shares.
    'limits: { perPrincipal: { sessions: 1000, streams: 1000, connections: 1000, callsInFlight: 1000 } }',
    'servers:',
  ];
  for (const name of names) lines.push(`  - name: ${name}`, `    command: ${JSON.stringify(process.execPath)}`, `    args: ${JSON.stringify([ECHO, '--name', name])}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  process.on('exit', () => rmSync(file, { force: true }));
  const ports = [await freePort(), await freePort(), await freePort()];
  const procs = await Promise.all(ports.map((port) => startReplicaOn(file, port, gateway)));
  const nginx = await startNginx(ports);
  log(`soak --replicas 3: ${calls} calls, ${sessions} sessions × ${concurrency} in flight, a replica SIGKILLed every ${minMs}-${maxMs} ms, behind ${nginx.url}`);

  const ledger = new TimedLedger();
  const agents = { post: new Agent({ connections: sessions * concurrency, pipelining: 1 }), stream: new Agent({ pipelining: 1 }) };
  const kills = [];
  let stopped = false;
  const killer = (async () => {
    while (!stopped) {
      await sleep(minMs + Math.random() * (maxMs - minMs));
      if (stopped) break;
      const i = Math.floor(Math.random() * procs.length);
      const victim = procs[i];
      try {
        process.kill(-victim.pid, 'SIGKILL'); // the gateway and its echo servers, as a pod goes
      } catch {
        /* gone already */
      }
      const at = Date.now();
      await victim.exitPromise;
      procs[i] = await startReplicaOn(file, ports[i], gateway);
      kills.push({ replica: i, at, back: Date.now() });
    }
  })();

  let next = 0;
  let openFailures = 0;
  const worker = async () => {
    while (next < calls) {
      const session = new SoakHttpSession(nginx.url, { agents, ledger, requestTimeoutMs });
      try {
        await session.open();
      } catch (err) {
        ledger.failures.push({ key: 'initialize', why: err.message, at: Date.now() });
        // A cluster that cannot open sessions at all fails the run rather than spinning.
        if (++openFailures > 100) break;
        continue;
      }
      const per = Math.min(sessionCalls, calls - next);
      next += per;
      let left = per;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (left-- > 0) {
            const server = names[Math.floor(Math.random() * names.length)];
            // The text is the call's own key: an answer that lands on another call shows as mismatched.
            await session.call(server, `${server}__echo`, (key) => key);
          }
        }),
      );
      await session.close(500);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: sessions }, worker));
  stopped = true;
  await killer;
  const elapsed = (Date.now() - t0) / 1000;

  // A failure is a kill's when it came while a replica was down or just after (nginx's 502, a reset).
  const killed = (at) => kills.some((k) => at >= k.at && at <= k.back + 2000);
  const explained = ledger.failures.filter((f) => /HTTP 502|ECONNRESET|UND_ERR_SOCKET|other side closed/.test(f.why) && killed(f.at));
  const unexplained = ledger.failures.filter((f) => !explained.includes(f));
  const lost = ledger.lost().length;
  const rpcErrors = ledger.errors.length;
  const lat = [...ledger.latenciesUs].sort((a, b) => a - b);
  const rows = [
    ['calls sent', ledger.sent],
    ['answered with their payload', ledger.ok],
    ['lost (no answer, no failure)', lost],
    ['duplicated', ledger.duplicated],
    ['mismatched / stray / misrouted', `${ledger.mismatched} / ${ledger.stray} / ${ledger.misrouted}`],
    ['failed in flight on a killed replica (502, reset)', explained.length],
    ['failed otherwise (JSON-RPC errors, other HTTP statuses)', `${rpcErrors} / ${unexplained.length}`],
    ['replicas killed and restarted', kills.length],
    ['p50 / p99 latency (ms)', `${(percentile(lat, 0.5) / 1000).toFixed(1)} / ${(percentile(lat, 0.99) / 1000).toFixed(1)}`],
    ['calls per second', (ledger.sent / elapsed).toFixed(0)],
  ];
  const ok = lost === 0 && ledger.duplicated === 0 && ledger.mismatched === 0 && ledger.stray === 0 && rpcErrors === 0 && unexplained.length === 0 && kills.length > 0;
  const report = [
    `# Soak, three replicas behind nginx (${quick ? 'quick' : 'full'}): ${ok ? 'PASS' : 'FAIL'}`,
    '',
    `\`node bench/soak.mjs --replicas 3${quick ? ' --quick' : ''}\`, ${new Date().toISOString()}`,
    '',
    '| what | count |',
    '| --- | --- |',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
    '',
    ...(unexplained.length > 0 ? ['Unexplained failures (first 5):', '', ...unexplained.slice(0, 5).map((f) => `- ${f.key}: ${f.why}`), ''] : []),
    ...(rpcErrors > 0 ? ['JSON-RPC errors (first 5):', '', ...ledger.errors.slice(0, 5).map((e) => `- ${e.key}: ${e.rpcCode} ${e.message}`), ''] : []),
  ].join('\n');
  const out = join(OUT_DIR, `SOAK-replicas${quick ? '-quick' : ''}.md`);
  writeFileSync(out, `${report}\n`);
  log(report);
  log(`soak: report in ${out}`);
  await Promise.all([agents.post.close(), agents.stream.close()]);
  await redis.stop();
  await stopAll();
  return ok ? 0 : 1;
}
