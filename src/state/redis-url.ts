// How a Redis URL is shown: in logs and `switchboard check`, never with its password. Pure: no
// Redis client here, so the CLI can describe the store without loading one.

/** `redis://user:***@host:6379/0`: the URL with its password masked (as given when it does not parse). */
export function maskRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.href;
  } catch {
    return '(an unreadable URL)';
  }
}

/** `host:6379` and what is hidden or notable about the connection, for a person to read. */
export function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    const notes = [u.protocol === 'rediss:' ? 'TLS' : '', u.pathname.length > 1 ? `database ${u.pathname.slice(1)}` : '', u.password !== '' ? 'password hidden' : ''].filter(Boolean);
    return `${u.hostname}:${u.port || '6379'}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
  } catch {
    return '(an unreadable URL)';
  }
}

/** The line `switchboard check` prints: "state: memory" or "state: redis at host:port (password hidden)". */
export function describeState(state: { readonly redis?: string | undefined }): string {
  return state.redis === undefined ? 'state: memory' : `state: redis at ${describeRedisUrl(state.redis)}`;
}
