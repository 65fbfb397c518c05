// Shared helpers for the config tests: parse a YAML string, or get the problems it yields.

import { expect } from 'vitest';
import { parseConfig } from '../../../src/config/load.js';
import { ConfigError, type ConfigProblem, type GatewayConfig } from '../../../src/config/types.js';

export const BASE = '/srv/switchboard/config';

/** `fileCase: auto` as the gateway resolves it on this machine (insensitive on macOS, Windows). */
export const HOST_FILE_CASE = process.platform === 'darwin' || process.platform === 'win32' ? 'insensitive' : 'sensitive';

/** What every server gets when the file says nothing: one place to change when a key is added. */
export const SERVER_DEFAULTS = {
  enabled: true,
  timeoutMs: 60_000,
  startupTimeoutMs: 30_000,
  isolation: 'shared',
  protocol: 'auto',
  reconnect: { initialDelayMs: 500, maxDelayMs: 30_000, maxFailures: 10 },
  downtimeGraceMs: 30_000,
  listLimits: {},
  tools: { allow: ['*'], deny: [] },
  prompts: { allow: ['*'], deny: [] },
  resources: { allow: ['*'], deny: [], fileCase: HOST_FILE_CASE },
} as const;

export function parse(text: string, env: NodeJS.ProcessEnv = {}): GatewayConfig {
  return parseConfig(text, { baseDir: BASE, env });
}

/** The problems a config yields; fails the test when it parses. */
export function problemsOf(text: string, env: NodeJS.ProcessEnv = {}): ConfigProblem[] {
  try {
    parseConfig(text, { baseDir: BASE, env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  expect.fail('expected a ConfigError');
}

/** `path: message` lines, the way the CLI prints them. */
export function linesOf(text: string, env: NodeJS.ProcessEnv = {}): string[] {
  return problemsOf(text, env).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
}
