// How `switchboard users` reads its command line: list by default, --user only for list, revoke
// with a user and an optional server, rotate alone, connect with a server and an optional --user; anything else is a usage error (exit 2).

import { describe, expect, it } from 'vitest';
import { UsageError, parseCli } from '../../../src/cli/args.js';

describe('users arguments', () => {
  it('lists by default, one user with --user', () => {
    expect(parseCli(['users'])).toMatchObject({ command: 'users', usersAction: 'list' });
    expect(parseCli(['users', 'list', '--user', 'alice', '--json'])).toMatchObject({ command: 'users', usersAction: 'list', user: 'alice', json: true });
  });

  it('revokes a user, or one of their servers; rotates', () => {
    expect(parseCli(['users', 'revoke', 'alice'])).toMatchObject({ usersAction: 'revoke', user: 'alice' });
    expect(parseCli(['users', 'revoke', 'alice']).server).toBeUndefined();
    expect(parseCli(['users', 'revoke', 'alice', 'github'])).toMatchObject({ usersAction: 'revoke', user: 'alice', server: 'github' });
    expect(parseCli(['users', 'rotate'])).toMatchObject({ usersAction: 'rotate' });
  });

  it('connects a server, for the local user by default or --user', () => {
    expect(parseCli(['users', 'connect', 'github'])).toMatchObject({ usersAction: 'connect', server: 'github' });
    expect(parseCli(['users', 'connect', 'github']).user).toBeUndefined();
    expect(parseCli(['users', 'connect', 'github', '--user', 'alice'])).toMatchObject({ usersAction: 'connect', server: 'github', user: 'alice' });
  });

  it.each([
    [['users', 'connect']],
    [['users', 'connect', 'a', 'b']],
    [['users', 'connect', 'github', '--user', '']],
    [['users', 'revoke']],
    [['users', 'revoke', 'a', 'b', 'c']],
    [['users', 'revoke', 'alice', '--user', 'bob']],
    [['users', 'list', 'alice']],
    [['users', 'rotate', 'now']],
    [['users', 'purge']],
    [['check', '--user', 'alice']],
  ])('refuses %j', (argv) => {
    expect(() => parseCli(argv)).toThrow(UsageError);
  });
});
