// Unset variables in disabled servers: the file still loads, and those fields get their defaults.

import { describe, expect, it } from 'vitest';
import { parseWithout } from '../../../src/config/excused.js';
import { BASE, parse, SERVER_DEFAULTS } from './helpers.js';

describe('a disabled server whose fields hold unset variables', () => {
  it('gets the defaults for those fields, keeps its kind, and the rest of the file is read as written', () => {
    const config = parse(`
listen: { port: 9000 }
limits: { maxDepth: 100 }
servers:
  - { name: a, url: "\${URL}", timeout: "\${T}", isolation: "\${I}", transport: "\${TR}", enabled: false }
  - { name: b, command: "\${CMD}", cwd: "\${C}", inheritEnv: ["\${X}"], reconnect: { maxFailures: "\${MF}" }, enabled: false }
`);
    expect(config.listen.port).toBe(9000);
    expect(config.limits.maxDepth).toBe(100);
    expect(config.limits.maxSessions).toBe(1000);
    expect(config.servers).toEqual([
      { kind: 'http', name: 'a', prefix: 'a', ...SERVER_DEFAULTS, enabled: false, url: '', transport: 'auto', headers: {} },
      { kind: 'stdio', name: 'b', prefix: 'b', ...SERVER_DEFAULTS, enabled: false, command: '', args: [], env: {}, inheritEnv: false, cwd: BASE },
    ]);
  });

  it('of the Claude Desktop shape, too', () => {
    const config = parse('mcpServers: { c: { command: "${CMD}", timeout: "${T}", disabled: true } }');
    expect(config.servers).toEqual([{ kind: 'stdio', name: 'c', prefix: 'c', ...SERVER_DEFAULTS, enabled: false, command: '', args: [], env: {}, inheritEnv: false, cwd: BASE }]);
  });
});

describe('parseWithout', () => {
  const tree = () => ({ servers: [{ name: 'a', command: '', timeout: '', inheritEnv: ['', 'B'], enabled: false }] });

  it('parses without the values, then puts back those without a default', () => {
    const paths = [
      ['servers', 0, 'command'],
      ['servers', 0, 'timeout'],
      ['servers', 0, 'inheritEnv', 0],
    ];
    const result = parseWithout(tree(), paths);
    expect(result.success).toBe(true);
    expect(result.data!.servers[0]).toMatchObject({ command: '', timeout: 60_000, inheritEnv: false });
  });

  it('leaves the tree it was given alone', () => {
    const given = tree();
    parseWithout(given, [['servers', 0, 'timeout']]);
    expect(given).toEqual(tree());
  });

  it('fails as a parse does when a failing value is not among the paths', () => {
    const result = parseWithout(tree(), [['servers', 0, 'command']]);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path)).toEqual(expect.arrayContaining([['servers', 0, 'timeout']]));
  });
});
