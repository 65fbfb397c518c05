// `switchboard run FILE`: its arguments, and the config it runs under (code mode for the profile
// it runs as, whatever catalog.mode says; nothing else changed).
import { describe, expect, it } from 'vitest';
import { UsageError, USAGE, parseCli } from '../../../src/cli/args.js';
import { inCodeMode } from '../../../src/cli/run.js';
import { parse } from '../config/helpers.js';

describe('switchboard run', () => {
  it('takes one script file (or - for stdin), a config and a client profile', () => {
    expect(parseCli(['run', 'task.js', '-c', 'x.yaml', '--client', 'agent'])).toMatchObject({ command: 'run', file: 'task.js', config: 'x.yaml', client: 'agent' });
    expect(parseCli(['run', '-'])).toMatchObject({ command: 'run', file: '-' });
    expect(() => parseCli(['run'])).toThrow(UsageError);
    expect(() => parseCli(['run', 'a.js', 'b.js'])).toThrow(/run expects one script FILE/);
    expect(USAGE).toMatch(/switchboard run FILE \[-c FILE\] \[--client NAME\]/);
  });

  it('runs in code mode for the profile it runs as, and changes nothing else', () => {
    const config = parse('catalog: { mode: search }\nclients:\n  - { name: a, token: t1 }\n  - { name: b, token: t2, catalog: { mode: full, codeBudget: 7 } }\nservers: []\n');
    expect(inCodeMode(config, undefined).catalog).toEqual({ ...config.catalog, mode: 'code' });
    const b = config.clients[1]!;
    const forB = inCodeMode(config, b);
    expect(forB.catalog).toBe(config.catalog);
    expect(forB.clients[0]).toBe(config.clients[0]);
    expect(forB.clients[1]!.catalog).toEqual({ mode: 'code', codeBudget: 7 });
    expect(config.clients[1]!.catalog?.mode).toBe('full');
  });
});
