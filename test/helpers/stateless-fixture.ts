// Starting the 2026-07-28 fixture server (test/fixtures/servers/modern-server.mjs) for tests:
// as a stdio command for a client or a gateway config, or as an HTTP server whose URL is read
// from the one JSON line it prints. Spawned processes are tracked for cleanup().
import { fixture, nodeBin, repoRoot } from './paths.js';
import type { HttpFixture } from './fixtures.js';
import { LineCollector, exited, spawnTracked, terminate } from './processes.js';
import type { StdioCommand } from './stateless-client.js';

export const STATELESS_SERVER = fixture('modern-server');

export interface ModernFixtureOptions {
  /** Refuse 2025-era traffic (initialize → -32022). Default: dual-era. */
  modernOnly?: boolean;
  /** serverInfo.name (default "modern-fixture"). */
  name?: string;
  /** serverInfo.description (default none). */
  description?: string;
}

function flags(options: ModernFixtureOptions): string[] {
  const out: string[] = [];
  if (options.modernOnly) out.push('--modern-only');
  if (options.name) out.push('--name', options.name);
  if (options.description) out.push('--description', options.description);
  return out;
}

/** The stdio command that runs the fixture (for connectStatelessStdio or a gateway server entry). */
export function statelessServerCommand(options: ModernFixtureOptions = {}): StdioCommand & { args: string[] } {
  return { command: nodeBin, args: [STATELESS_SERVER, ...flags(options)], cwd: repoRoot };
}

/** Starts the fixture over Streamable HTTP on 127.0.0.1 (a free port) and waits for its URL. */
export async function startStatelessHttpFixture(options: ModernFixtureOptions = {}): Promise<HttpFixture> {
  const proc = spawnTracked(nodeBin, [STATELESS_SERVER, '--http', '127.0.0.1:0', ...flags(options)], { cwd: repoRoot });
  const spawned = {
    proc,
    pid: proc.pid ?? -1,
    stdout: new LineCollector(proc.stdout),
    stderr: new LineCollector(proc.stderr),
    exited: exited(proc),
    stop: (graceMs = 5000) => terminate(proc, graceMs),
  };
  try {
    const line = await spawned.stdout.waitForLine(/"url"/, 10_000, 'modern-server stdout');
    return { ...spawned, url: (JSON.parse(line) as { url: string }).url };
  } catch (err) {
    await spawned.stop(500);
    throw new Error(`${(err as Error).message}\nstderr:\n${spawned.stderr.text}`);
  }
}
