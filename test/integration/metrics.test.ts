// /metrics on the built gateway with real fixture servers: behind an operator's token, in the
// Prometheus text format, counting what clients and servers really did (calls by outcome,
// latency, refusals, a crash and the reconnect after it, sessions, catalog).
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, connectHttpClient, fixtureServer, startGateway, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const OPS = 'ops-token-0123456789';
const AGENT = 'agent-token-0123456789';
const config = yamlServers([fixtureServer('echo', 'echo'), fixtureServer('crashy', 'misbehaving', [], { reconnect: { initialDelay: '50ms' } })], {
  clients: [
    { name: 'ops', token: OPS, operator: true },
    { name: 'agent', token: AGENT, tools: { allow: ['*'], deny: ['*__add'] } },
  ],
});

/** Series name{labels} → value, from the text format. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

async function scrape(base: string, token = OPS): Promise<Map<string, number>> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return parse(await res.text());
}

describe('/metrics', () => {
  it('answers only an operator token, in the Prometheus text format', async () => {
    const gw = await startGateway(config);
    const base = new URL(gw.url).origin;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${AGENT}` } })).status).toBe(403);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${OPS}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE switchboard_server_requests_total counter');
    expect(text).toContain('# TYPE switchboard_server_request_duration_seconds histogram');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).not.toContain(OPS);
  });

  it('counts calls by server, method and outcome, refusals, a crash and the reconnect after it', async () => {
    const gw = await startGateway(config);
    const base = new URL(gw.url).origin;
    const client = await connectHttpClient(gw.url, { headers: { authorization: `Bearer ${AGENT}` } });
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'echo__echo', arguments: { text: `hi ${i}` } });
    // Hidden by the profile, and not in the catalog at all: both refused with the same error.
    await expect(client.callTool({ name: 'echo__add', arguments: { a: 1, b: 2 } })).rejects.toThrow(/Unknown tool/);
    await expect(client.callTool({ name: 'nobody__nothing', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.callTool({ name: 'crashy__crash', arguments: {} }).catch(() => undefined);
    await gw.waitForStderr(/"server":"crashy".*"msg":"reconnected"/);

    const m = await scrape(base);
    expect(m.get('switchboard_server_requests_total{server="echo",method="tools/call",outcome="ok"}')).toBe(3);
    expect(m.get('switchboard_server_request_duration_seconds_count{server="echo",method="tools/call"}')).toBe(3);
    expect(m.get('switchboard_server_request_duration_seconds_bucket{server="echo",method="tools/call",le="+Inf"}')).toBe(3);
    expect(m.get('switchboard_server_request_duration_seconds_sum{server="echo",method="tools/call"}')).toBeGreaterThan(0);
    const crashOutcomes = [...m].filter(([k]) => k.startsWith('switchboard_server_requests_total{server="crashy",method="tools/call"'));
    expect(crashOutcomes).toEqual([
      ['switchboard_server_requests_total{server="crashy",method="tools/call",outcome="ok"}', 0],
      [expect.stringMatching(/outcome="connection_closed"/), 1],
    ]);
    expect(m.get('switchboard_server_reconnects_total{server="crashy"}')).toBe(1);
    // The crash is one failure, with its reason from the fixed set.
    const failures = [...m].filter(([k]) => k.startsWith('switchboard_server_failures_total{server="crashy"'));
    expect(failures).toEqual([[expect.stringMatching(/reason="(closed|other)"/), 1]]);
    expect(m.get('switchboard_server_calls_in_flight{server="echo"}')).toBe(0);
    expect(m.get('switchboard_client_requests_total{method="tools/call",outcome="ok"}')).toBe(3);
    expect(m.get('switchboard_policy_refusals_total{method="tools/call",reason="profile"}')).toBe(1);
    expect(m.get('switchboard_policy_refusals_total{method="tools/call",reason="unknown"}')).toBe(1);
    expect(m.get('switchboard_sessions{profile="agent"}')).toBe(1);
    expect(m.get('switchboard_server_up{server="echo"}')).toBe(1);
    expect(m.get('switchboard_server_state{server="echo",state="ready"}')).toBe(1);
    // The state set names every state a connection has, needs-login (OAuth) included.
    expect(m.get('switchboard_server_state{server="echo",state="needs-login"}')).toBe(0);
    expect(m.get('switchboard_server_info{server="echo",transport="stdio",protocol_version="2025-11-25"}')).toBe(1);
    expect(m.get('switchboard_server_items{server="echo",kind="tools"}')).toBe(2);
    expect(m.get('switchboard_catalog_items{kind="tools"}')).toBeGreaterThanOrEqual(2);
    expect(m.get('switchboard_catalog_tokens{profile="agent",mode="full"}')).toBeGreaterThan(0);
    // The profile hides a tool: its tools/list costs fewer tokens than the whole catalog's.
    expect(m.get('switchboard_catalog_tokens{profile="agent",mode="full"}')).toBeLessThan(m.get('switchboard_catalog_tokens{profile="(none)",mode="full"}')!);
  });

  it('is not served with SWITCHBOARD_METRICS=off, and the dashboard says so', async () => {
    const gw = await startGateway(config, { env: { SWITCHBOARD_METRICS: 'off' } });
    const base = new URL(gw.url).origin;
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${OPS}` } })).status).toBe(404);
    const state = (await (await fetch(`${base}/dashboard.json`, { headers: { authorization: `Bearer ${OPS}` } })).json()) as { metrics: boolean };
    expect(state.metrics).toBe(false);
  });
});
