// Only what the chosen face uses may fail the start: an unset ${VAR} in a setting only the HTTP
// face reads (listen, a client's token and match) is a warning when that face is not opened, and
// the setting is dropped; anywhere else, and with the HTTP face, it is still a problem.

import { describe, expect, it } from 'vitest';
import { httpOnly, parseConfig } from '../../../src/config/load.js';
import { ConfigError, type ConfigProblem } from '../../../src/config/types.js';
import { BASE } from './helpers.js';

const FILE = `
listen: { port: "\${PORT}" }
servers:
  - name: memory
    command: node
clients:
  - name: me
    token: \${SWITCHBOARD_TOKEN}
    operator: true
stdio: { client: me }
`;

function read(text: string, httpFace: boolean, env: NodeJS.ProcessEnv = {}) {
  const warnings: ConfigProblem[] = [];
  const config = parseConfig(text, { baseDir: BASE, env, httpFace, onWarning: (w) => warnings.push(w) });
  return { config, warnings };
}

describe('settings only the HTTP face reads', () => {
  it('are listen (but stateKey) and a client profile’s token and match', () => {
    expect(httpOnly(['listen', 'port'])).toBe(true);
    expect(httpOnly(['listen', 'auth', 'issuer'])).toBe(true);
    expect(httpOnly(['listen', 'stateKey'])).toBe(false);
    expect(httpOnly(['clients', 0, 'token'])).toBe(true);
    expect(httpOnly(['clients', 2, 'match', 'sub'])).toBe(true);
    expect(httpOnly(['clients', 0, 'tools', 'allow', 0])).toBe(false);
    expect(httpOnly(['servers', 0, 'env', 'TOKEN'])).toBe(false);
  });

  it('without the HTTP face: unset there is a warning, the setting dropped (its default applies)', () => {
    const { config, warnings } = read(FILE, false);
    expect(warnings.map((w) => w.path)).toEqual(['listen.port', 'clients[0].token']);
    expect(warnings[1]!.message).toMatch(/^environment variable SWITCHBOARD_TOKEN is not set: only the HTTP face reads this/);
    expect(config.clients[0]!.token).toBeUndefined();
    expect(config.clients[0]!.operator).toBe(true);
    expect(config.listen.port).toBe(8808);
  });

  it('with the HTTP face (the default): still a problem', () => {
    expect(() => read(FILE, true)).toThrow(ConfigError);
    const err = (() => {
      try {
        parseConfig(FILE, { baseDir: BASE, env: {} });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err?.problems.map((p) => p.path)).toEqual(['listen.port', 'clients[0].token']);
  });

  it('elsewhere: still a problem, face or not', () => {
    const text = 'servers:\n  - name: a\n    command: node\n    env: { T: "${T}" }\n';
    expect(() => read(text, false)).toThrow(/servers\[0\]\.env\.T: environment variable T is not set/);
  });

  it('set: no warning, the value used', () => {
    const { config, warnings } = read(FILE, false, { PORT: '9000', SWITCHBOARD_TOKEN: 'abc' });
    expect(warnings).toEqual([]);
    expect(config.clients[0]!.token).toBe('abc');
    expect(config.listen.port).toBe(9000);
  });
});
