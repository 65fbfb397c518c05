import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultTokenFile, FileTokenStore, type StoredTokens } from '../../../src/outbound/auth/token-store.js';

let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'sb-store-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

const tokens = (access: string): StoredTokens => ({ accessToken: access, tokenType: 'bearer', issuer: 'https://as', resource: 'https://rs/mcp', grant: 'authorization_code', obtainedAt: 1 });

describe('FileTokenStore', () => {
  it('creates the file 0600 inside a fresh 0700 directory and reads back what it wrote', async () => {
    const store = new FileTokenStore(join(dir, 'a', 'b', 'tokens.json'));
    await store.setTokens('srv', 'https://rs/mcp', tokens('t1'));
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'a', 'b'))).mode & 0o777).toBe(0o700);
    expect((await store.getTokens('srv', 'https://rs/mcp'))?.accessToken).toBe('t1');
    expect(await store.getTokens('srv', 'https://other/mcp')).toBeUndefined();
    expect(await store.getTokens('other', 'https://rs/mcp')).toBeUndefined();
  });

  it("sees what another process wrote, and keeps both processes' entries", async () => {
    const path = join(dir, 'tokens.json');
    const a = new FileTokenStore(path);
    const b = new FileTokenStore(path);
    await a.setTokens('one', 'u1', tokens('t1'));
    expect((await b.getTokens('one', 'u1'))?.accessToken).toBe('t1');
    await b.setTokens('two', 'u2', tokens('t2'));
    await b.setClient('https://as', { clientId: 'c', tokenEndpointAuthMethod: 'none', issuer: 'https://as', registeredAt: 1 });
    expect((await a.getTokens('two', 'u2'))?.accessToken).toBe('t2');
    expect((await a.getClient('https://as'))?.clientId).toBe('c');
    await a.setTokens('one', 'u1', undefined);
    expect(await b.getTokens('one', 'u1')).toBeUndefined();
    expect((await b.getTokens('two', 'u2'))?.accessToken).toBe('t2');
  });

  it('concurrent writes in one process all land (one queue)', async () => {
    const store = new FileTokenStore(join(dir, 'tokens.json'));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.setTokens(`s${i}`, 'u', tokens(`t${i}`))));
    const saved = JSON.parse(await readFile(store.path, 'utf8'));
    expect(Object.keys(saved.tokens)).toHaveLength(20);
  });

  it('tightens a token file others can read, and treats a corrupt file as empty', async () => {
    const path = join(dir, 'tokens.json');
    await writeFile(path, '{not json', { mode: 0o644 });
    await chmod(path, 0o644);
    const store = new FileTokenStore(path);
    expect(await store.getTokens('s', 'u')).toBeUndefined();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('defaults to $XDG_STATE_HOME/switchboard, else ~/.local/state/switchboard', () => {
    expect(defaultTokenFile({ XDG_STATE_HOME: '/x/state' })).toBe('/x/state/switchboard/tokens.json');
    expect(defaultTokenFile({ XDG_STATE_HOME: 'relative' })).toMatch(/\/\.local\/state\/switchboard\/tokens\.json$/);
    expect(defaultTokenFile({})).toMatch(/\/\.local\/state\/switchboard\/tokens\.json$/);
  });
});
