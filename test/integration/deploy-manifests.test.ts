// deploy/kubernetes without a cluster: every manifest parses, and the facts a cluster would
// otherwise reveal only at runtime hold (probes on the gateway's /healthz at its port, selectors
// that select the Deployment's pods, a grace period long enough for the drain, every ${VAR} of the
// config defined). The ConfigMap's config passes `switchboard check` with the Secret's example
// values, against a real redis-server and an HTTP MCP server, and the gateway it configures answers
// the probes as sent (no token, Host: localhost) while the MCP endpoint wants a token.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { cleanup, repoRoot, runCli, startGateway, startHttpFixture } from '../helpers/index.js';
import { startRedis } from '../helpers/redis-server.js';

afterAll(cleanup);

type Doc = Record<string, any>;
const dir = path.join(repoRoot, 'deploy/kubernetes');
const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
const docs: Doc[] = kustomization.resources.flatMap((file) => parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((d) => d.toJS() as Doc));
const find = (kind: string, name: string): Doc => {
  const doc = docs.find((d) => d.kind === kind && d.metadata?.name === name);
  if (!doc) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return doc;
};
const deployment = find('Deployment', 'switchboard');
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const configMap = find('ConfigMap', 'switchboard-config');
const secret = find('Secret', 'switchboard-secrets');
const configText: string = configMap.data['switchboard.yaml'];
const config = parse(configText) as Doc;
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1] ?? Number.NaN);
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('deploy/kubernetes', () => {
  it('lists every manifest in the kustomization, none bound to a namespace', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect(new Set(kustomization.resources)).toEqual(new Set(files));
    expect(docs.filter((d) => d.metadata?.namespace !== undefined)).toEqual([]);
    expect(docs.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'PodDisruptionBudget', 'Secret', 'Service', 'Service']);
  });

  it('runs three replicas that the Service and the PodDisruptionBudget both select', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.replicas).toBe(3);
    expect(selects(deployment.spec.selector.matchLabels, labels)).toBe(true);
    const service = find('Service', 'switchboard');
    expect(selects(service.spec.selector, labels)).toBe(true);
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');
    expect(service.spec.ports[0].targetPort).toBe('http');
    const pdb = find('PodDisruptionBudget', 'switchboard');
    expect(selects(pdb.spec.selector.matchLabels, labels)).toBe(true);
    expect(pdb.spec.minAvailable).toBe(2);
    // The Redis for trying it must not be caught by the gateway's selectors.
    expect(selects(service.spec.selector, find('Deployment', 'switchboard-redis').spec.template.metadata.labels)).toBe(false);
  });

  it('probes /healthz at the port the config listens on, with a Host the gateway allows', () => {
    const port = container.ports.find((p: Doc) => p.name === 'http');
    expect(config.listen.host).toBe('0.0.0.0');
    expect(port.containerPort).toBe(config.listen.port);
    for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
      expect(probe.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
      // Loopback names always pass the Host check; the kubelet's default (the pod IP) would not.
      expect(probe.httpGet.httpHeaders).toEqual([{ name: 'Host', value: 'localhost' }]);
    }
    expect(config.listen.allowedHosts).toContain(find('Service', 'switchboard').metadata.name);
  });

  it('gives a drain its time: preStop pause + shutdownGrace within the grace period, liveness slower than both', () => {
    const pause = Number(container.lifecycle.preStop.exec.command[1]);
    const grace = seconds(config.limits.shutdownGrace);
    expect(pause).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(pause + grace + 5);
    const liveness = container.livenessProbe;
    expect(liveness.periodSeconds * liveness.failureThreshold).toBeGreaterThan(pod.terminationGracePeriodSeconds);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('runs unprivileged on a read-only root, writing only to its volumes', () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const mounts = Object.fromEntries(container.volumeMounts.map((m: Doc) => [m.mountPath, m.name]));
    const volumes = Object.fromEntries(pod.volumes.map((v: Doc) => [v.name, v]));
    // The config file the args name sits in the ConfigMap's mount.
    const file = container.args[container.args.indexOf('-c') + 1] as string;
    expect(volumes[mounts[path.dirname(file)]].configMap.name).toBe('switchboard-config');
    expect(Object.keys(configMap.data)).toContain(path.basename(file));
    // HOME (and XDG_STATE_HOME under it) as the Dockerfile sets them, and /tmp, are writable.
    const dockerfile = readFileSync(path.join(repoRoot, 'deploy/Dockerfile'), 'utf8');
    const home = /ENV HOME=(\S+)/.exec(dockerfile)?.[1];
    for (const where of [home, '/tmp']) expect(volumes[mounts[where!]]?.emptyDir, `emptyDir at ${where}`).toEqual({});
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('shares one store and one state key, with every ${VAR} of the config defined', () => {
    expect(config.state).toEqual({ redis: '${SWITCHBOARD_REDIS_URL}' });
    expect(config.listen.stateKey).toBe('${SWITCHBOARD_STATE_KEY}');
    const used = new Set([...configText.matchAll(/\$\{(\w+)/g)].map((m) => m[1]));
    const fromSecret = container.envFrom.filter((e: Doc) => e.secretRef?.name === secret.metadata.name).length === 1 ? Object.keys(secret.stringData) : [];
    const defined = new Set([...fromSecret, ...container.env.map((e: Doc) => e.name)]);
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
    for (const secretName of ['SWITCHBOARD_REDIS_URL', 'SWITCHBOARD_STATE_KEY']) expect(fromSecret).toContain(secretName);
    // Every example value says it is one.
    const secretText = readFileSync(path.join(dir, 'secret.yaml'), 'utf8');
    for (const key of Object.keys(secret.stringData)) expect(secretText).toMatch(new RegExp(`^\\s*${key}: .*# example`, 'm'));
    // The example Redis URL names the Service of redis.yaml.
    expect(new URL(secret.stringData.SWITCHBOARD_REDIS_URL).hostname).toBe(find('Service', 'switchboard-redis').metadata.name);
  });

  /** The environment a pod gets: the Secret's example values, the Deployment's env, the test's Redis and server. */
  async function podEnv(): Promise<Record<string, string>> {
    const [redis, docsServer] = await Promise.all([startRedis(), startHttpFixture({ name: 'docs' })]);
    const env: Record<string, string> = { ...secret.stringData, POD_NAMESPACE: 'team-a', SWITCHBOARD_REDIS_URL: redis.url, DOCS_MCP_URL: docsServer.url };
    for (const e of container.env) if (typeof e.value === 'string' && env[e.name] === undefined) env[e.name] = e.value;
    return env;
  }

  it('holds a config that `switchboard check` accepts with the example values', async () => {
    const run = await runCli(['check'], configText, await podEnv());
    // Exit 0: the config is valid and every server connected (2 would be a config error).
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/error/i) });
    expect(run.stdout).toContain('docs__echo');
  });

  it('answers the probes as the kubelet sends them (no token, Host: localhost), tokens required elsewhere', async () => {
    // The pod's config, served on loopback (tests bind nothing else): Host and token as a probe has them.
    const gw = await startGateway(configText, { env: await podEnv(), args: ['--http', '127.0.0.1:0'] });
    const probe = container.readinessProbe.httpGet;
    const ask = (path: string, host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers = Object.fromEntries((probe.httpHeaders as Array<{ name: string; value: string }>).map((h) => [h.name, h.value]));
        const req = http.get({ host: '127.0.0.1', port: new URL(gw.url).port, path, headers: { ...headers, host: host } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
    const ready = await ask(probe.path, probe.httpHeaders[0].value);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'ok' });
    // The MCP endpoint itself still wants a token; the pod's IP as Host would be refused.
    expect((await ask(config.listen.path ?? '/mcp', 'localhost')).status).toBe(401);
    expect((await ask(probe.path, '10.1.2.3:8808')).status).toBe(403);
  });

  it.skipIf(spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status !== 0)('builds with kubectl kustomize (skipped: no kubectl)', () => {
    const built = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(built.stdout).toContain('image: registry.example.com/switchboard:0.1.0');
  });
});
