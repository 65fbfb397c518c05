// Why a server did not start, as `check` tells it: the informative line of the process's stderr
// (the thrown error, npm's 404), not its last line. Real child processes; npm is played by a
// fixture that writes npm's stderr, so no network is needed.

import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, fixture, nodeBin, runCli, yamlServers } from '../helpers/index.js';

afterAll(cleanup);

const check = (configText: string) => runCli(['check', '--json'], configText);

describe('a server that fails to start', () => {
  it('is reported with the error it threw, not "Node.js vX"', async () => {
    const r = await check(yamlServers([{ name: 'thrower', command: nodeBin, args: [fixture('throws-at-start'), 'cannot open database at /var/lib/example.db'] }]));
    expect(r.code).toBe(1);
    const [problem] = JSON.parse(r.stdout).problems;
    expect(problem.server).toBe('thrower');
    expect(problem.problem).toMatch(/exited with code 1/);
    expect(problem.problem).toContain('stderr: Error: cannot open database at /var/lib/example.db');
    expect(problem.problem).not.toMatch(/Node\.js v\d/);
  });

  it("is reported with npm's 404 line, not where npm put its log", async () => {
    const r = await check(yamlServers([{ name: 'missing', command: nodeBin, args: [fixture('npm-not-found'), '@example/no-such-mcp-server'] }]));
    expect(r.code).toBe(1);
    const [problem] = JSON.parse(r.stdout).problems;
    expect(problem.problem).toContain('stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fno-such-mcp-server');
    expect(problem.problem).not.toMatch(/complete log/);
  });
});
