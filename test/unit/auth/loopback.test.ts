import { describe, expect, it } from 'vitest';
import { startLoopback } from '../../../src/outbound/auth/loopback.js';

describe('loopback redirect listener', () => {
  it('listens on 127.0.0.1, discards callbacks with a wrong or missing state, delivers the right one', async () => {
    const lb = await startLoopback(0);
    try {
      expect(lb.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const got = lb.wait('s-123');
      expect((await fetch(`${lb.redirectUri}?code=evil&state=other`)).status).toBe(400);
      expect((await fetch(`${lb.redirectUri}?code=evil`)).status).toBe(400);
      expect((await fetch(lb.redirectUri.replace('/callback', '/elsewhere'))).status).toBe(404);
      const res = await fetch(`${lb.redirectUri}?code=good&state=s-123&iss=x`);
      expect(res.status).toBe(200);
      const params = await got;
      expect(params.get('code')).toBe('good');
      expect(params.get('iss')).toBe('x');
    } finally {
      await lb.close();
    }
  });

  it('gives up when the login is aborted (deadline), and closes', async () => {
    const lb = await startLoopback(0);
    const ac = new AbortController();
    const got = lb.wait('s', ac.signal);
    ac.abort(new Error('login timed out'));
    await expect(got).rejects.toThrow('login timed out');
    await lb.close();
    await expect(fetch(lb.redirectUri)).rejects.toThrow();
  });
});
