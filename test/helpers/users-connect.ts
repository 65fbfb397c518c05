// `switchboard users connect` as a script runs it: the built CLI with `input` on its stdin (the
// NAME=value lines of a secrets server; nothing for an OAuth one), stderr collected line by line so
// a test can wait for the authorization URL it prints.

import { exited, LineCollector, spawnTracked } from './processes.js';
import { gatewayMain, nodeBin, repoRoot } from './paths.js';

export interface UsersConnectRun {
  stderr: LineCollector;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function usersConnect(args: string[], configFile: string, env: Record<string, string>, input = ''): UsersConnectRun {
  const { SWITCHBOARD_CONFIG: _chosen, ...inherited } = process.env;
  const child = spawnTracked(nodeBin, [gatewayMain, 'users', 'connect', ...args, '-c', configFile], { cwd: repoRoot, env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin!.end(input);
  const stderr = new LineCollector(child.stderr!);
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const done = exited(child).then(async ({ code }) => {
    await stderr.ended();
    return { code, stdout, stderr: stderr.text };
  });
  return { stderr, done };
}
