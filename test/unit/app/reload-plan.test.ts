// planReload: a server whose entry changed restarts; one whose only change is its description
// (what search mode's directory says of it) is kept, connection and calls in flight included.
import { describe, expect, it } from 'vitest';
import { planReload } from '../../../src/app/reload-plan.js';
import { parse } from '../config/helpers.js';

const config = (a: string, b: string) => parse(`servers:\n  - { name: a, command: node, ${a} }\n  - { name: b, command: node, ${b} }\n`);

describe('planReload', () => {
  it('keeps a server whose description alone changed, and restarts one whose command line changed', () => {
    const plan = planReload(config('description: Mail', 'args: [x]'), config('description: Our team mail', 'args: [y]'));
    expect(plan.kept).toEqual(['a']);
    expect(plan.restarted.map((s) => s.name)).toEqual(['b']);
    expect(plan.order).toEqual(['a', 'b']);
  });

  it('says a change to state (the store, opened at start) takes a restart, and nothing else does', () => {
    const before = parse('servers: []\n');
    const after = parse('servers: []\nstate: { redis: "redis://127.0.0.1:6379/0" }\n');
    expect(planReload(before, after).stateChanged).toBe(true);
    expect(planReload(before, before).stateChanged).toBe(false);
  });
});

describe('planReload with per-user credentials', () => {
  it('restarts a server that became per-user, and says a change to credentials takes a restart', () => {
    const before = parse('servers:\n  - { name: a, url: "https://a.example/mcp", auth: { type: oauth } }\n');
    const after = parse('servers:\n  - { name: a, url: "https://a.example/mcp", auth: { type: oauth, perUser: true } }\ncredentials: { linkTtl: 5m }\n');
    const plan = planReload(before, after);
    expect(plan.restarted.map((s) => s.name)).toEqual(['a']);
    expect(plan.credentialsChanged).toBe(true);
    expect(planReload(after, after).credentialsChanged).toBe(false);
  });
});
