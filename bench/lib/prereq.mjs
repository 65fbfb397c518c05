// What a run needs before it starts (a built gateway no older than src/, the pinned peers) and
// what the report says about the machine and the versions measured.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, C_RELAY, GATEWAY, MCP_PROXY_BIN, OUT_DIR, ROOT_DIR, SUPERGATEWAY_BIN } from './paths.mjs';

/** True when some src/**.ts is newer than dist/main.js (or dist/ is missing). */
export function buildIsStale() {
  if (!existsSync(GATEWAY)) return true;
  try {
    const built = statSync(GATEWAY).mtimeMs;
    const src = join(ROOT_DIR, 'src');
    return readdirSync(src, { recursive: true }).some((f) => String(f).endsWith('.ts') && statSync(join(src, String(f))).mtimeMs > built);
  } catch {
    return false;
  }
}

/**
 * Builds dist/ when it is missing or older than src/ (so `npm run bench` right after `npm test`,
 * as CI does, does not build twice). Returns an error message, or undefined.
 */
export function ensureBuilt(log) {
  if (!buildIsStale()) return undefined;
  log('bench: dist/ missing or older than src/, running npm run build');
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(GATEWAY)) return `${r.stdout}\n${r.stderr}\nbench: npm run build failed`;
  return undefined;
}

/** Installs the pinned peers (bench/package-lock.json) when missing. Returns an error message, or undefined. */
export function ensurePeers(log) {
  if (existsSync(MCP_PROXY_BIN) && existsSync(SUPERGATEWAY_BIN)) return undefined;
  log('bench: installing the pinned peer gateways (npm ci --prefix bench)');
  const r = spawnSync('npm', ['ci', '--prefix', BENCH_DIR, '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0 || !existsSync(MCP_PROXY_BIN) || !existsSync(SUPERGATEWAY_BIN)) {
    return `npm ci --prefix bench failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().slice(-1500)}`;
  }
  return undefined;
}

/**
 * Compiles bench/byte-relay.c into .out/ (with `cc`, which CI machines have for node-gyp) unless
 * the binary is newer than the source. Returns an error message, or undefined; a machine with no C
 * compiler runs without the relay-c path.
 */
export function ensureCRelay() {
  const source = join(BENCH_DIR, 'byte-relay.c');
  if (existsSync(C_RELAY) && statSync(C_RELAY).mtimeMs >= statSync(source).mtimeMs) return undefined;
  mkdirSync(OUT_DIR, { recursive: true });
  const r = spawnSync('cc', ['-O2', '-o', C_RELAY, source], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.error) return `no C compiler (${r.error.message})`;
  if (r.status !== 0) return `cc failed (exit ${r.status}): ${(r.stderr || '').trim().slice(-500)}`;
  return undefined;
}

export function versionOf(pkgJson) {
  try {
    return JSON.parse(readFileSync(pkgJson, 'utf8')).version;
  } catch {
    return '?';
  }
}

export function gitDescribe(dir = ROOT_DIR) {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  if (r.status !== 0) return 'no git';
  const dirty = spawnSync('git', ['-C', dir, 'status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).stdout.trim();
  // The branch may be ahead with bench-only commits: name the commit that last changed src/ too.
  const src = spawnSync('git', ['-C', dir, 'log', '-1', '--format=%h', '--', 'src'], { encoding: 'utf8' }).stdout.trim();
  return `commit ${r.stdout.trim()}${src ? `, src/ as of ${src}` : ''}${dirty ? ' + uncommitted changes in src/' : ''}`;
}

export function cpuModel() {
  try {
    const m = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1].trim();
  } catch {
    /* not Linux */
  }
  return os.cpus()[0]?.model ?? 'unknown CPU';
}

export const loadavgText = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

/** The machine and version facts of the report header. */
export function machineMeta() {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memGiB: (os.totalmem() / 2 ** 30).toFixed(0),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    peerVersions: `mcp-proxy ${versionOf(join(BENCH_DIR, 'node_modules', 'mcp-proxy', 'package.json'))}, supergateway ${versionOf(join(BENCH_DIR, 'node_modules', 'supergateway', 'package.json'))}`,
  };
}
