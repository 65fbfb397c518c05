import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditLog, type AuditEntry } from '../../../src/observability/audit.js';

function fakeLogger() {
  const warn: { obj: any; msg?: string }[] = [];
  const error: { obj: any; msg?: string }[] = [];
  return {
    warn,
    error,
    logger: {
      warn: (obj: object, msg?: string) => void warn.push({ obj, msg }),
      error: (obj: object, msg?: string) => void error.push({ obj, msg }),
    },
  };
}

const entry: AuditEntry = {
  server: 'everything',
  kind: 'tool',
  item: 'add',
  field: 'description',
  change: 'injection-stripped',
  why: '<IMPORTANT> block: "<IMPORTANT> Before using this tool…"',
};

const lines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('createAuditLog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-audit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('appends JSON lines with a time, to a file created with mode 0600', async () => {
    const file = join(dir, 'audit.jsonl');
    const { logger, warn, error } = fakeLogger();
    const audit = createAuditLog({ file, logger });
    const before = Date.now();
    audit.record(entry);
    audit.record({ server: 's', kind: 'pin', item: 'x', change: 'held', why: 'changed since the lock' });
    await audit.close();
    const got = await lines(file);
    expect(got).toEqual([
      { time: expect.any(String), ...entry },
      { time: expect.any(String), server: 's', kind: 'pin', item: 'x', change: 'held', why: 'changed since the lock' },
    ]);
    expect(Object.keys(got[0]!)).toEqual(['time', 'server', 'kind', 'item', 'field', 'change', 'why']);
    expect(Date.parse(got[0]!.time as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(got[0]!.time as string).toISOString()).toBe(got[0]!.time);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(warn).toEqual([]);
    expect(error).toEqual([]);
  });

  it('appends to an existing file, keeping what was there', async () => {
    const file = join(dir, 'existing.jsonl');
    await writeFile(file, '{"old":true}\n');
    const audit = createAuditLog({ file, logger: fakeLogger().logger });
    audit.record(entry);
    await audit.close();
    const got = await lines(file);
    expect(got).toHaveLength(2);
    expect(got[0]).toEqual({ old: true });
  });

  it('writes identical entries once per process (catalog rebuilds repeat them)', async () => {
    const file = join(dir, 'dedupe.jsonl');
    const audit = createAuditLog({ file, logger: fakeLogger().logger });
    for (let i = 0; i < 5; i++) audit.record({ ...entry });
    audit.record({ ...entry, why: 'another reason' });
    audit.record({ ...entry, field: undefined });
    await audit.close();
    expect((await lines(file)).map((l) => [l.why, l.field])).toEqual([
      [entry.why, 'description'],
      ['another reason', 'description'],
      [entry.why, undefined],
    ]);
  });

  it('keeps one JSON object per line whatever the text holds', async () => {
    const file = join(dir, 'newlines.jsonl');
    const audit = createAuditLog({ file, logger: fakeLogger().logger });
    audit.record({ ...entry, item: 'a\nb', why: 'x\r\n{"forged":true}\u2028' });
    await audit.close();
    const got = await lines(file);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ item: 'a\nb', why: 'x\r\n{"forged":true}\u2028' });
  });

  it('does not create the file when nothing is recorded', async () => {
    const file = join(dir, 'never.jsonl');
    const audit = createAuditLog({ file, logger: fakeLogger().logger });
    await audit.close();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('without a file, warns through the logger, once per distinct entry', () => {
    const { logger, warn } = fakeLogger();
    const audit = createAuditLog({ logger });
    audit.record(entry);
    audit.record(entry);
    expect(warn).toEqual([
      {
        obj: { audit: entry },
        msg: 'audit: everything: tool add description: injection-stripped: <IMPORTANT> block: "<IMPORTANT> Before using this tool…"',
      },
    ]);
    return audit.close();
  });

  it('never throws on I/O errors: logs the error once and falls back to the logger', async () => {
    const file = join(dir, 'no-such-folder', 'audit.jsonl');
    const { logger, warn, error } = fakeLogger();
    const audit = createAuditLog({ file, logger });
    expect(() => {
      audit.record(entry);
      audit.record({ ...entry, item: 'b' });
    }).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    audit.record({ ...entry, item: 'c' });
    await audit.close();
    expect(error).toHaveLength(1);
    expect(error[0]!.msg).toContain(file);
    expect(error[0]!.obj).toMatchObject({ err: { code: 'ENOENT' } });
    // Nothing is lost: the entries written before the failure was known reach the logger too.
    expect(warn.map((w) => w.obj.audit.item).sort()).toEqual(['add', 'b', 'c']);
  });

  it('survives a path that cannot even be opened (NUL byte)', async () => {
    const { logger, warn, error } = fakeLogger();
    const audit = createAuditLog({ file: join(dir, 'bad\u0000name'), logger });
    expect(() => audit.record(entry)).not.toThrow();
    await audit.close();
    expect(error).toHaveLength(1);
    expect(warn).toHaveLength(1);
  });

  it('sends entries recorded after close to the logger', async () => {
    const file = join(dir, 'closed.jsonl');
    const { logger, warn } = fakeLogger();
    const audit = createAuditLog({ file, logger });
    audit.record(entry);
    await audit.close();
    await audit.close();
    audit.record({ ...entry, item: 'late' });
    expect(warn.map((w) => w.obj.audit.item)).toEqual(['late']);
    expect(await lines(file)).toHaveLength(1);
  });
});
