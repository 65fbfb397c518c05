// The user a face's principal stands for (per-user credentials, issue 33): an OAuth token's subject
// (whatever profile matched it), `profile:<name>` for a static token, nobody when unauthenticated.
import { describe, expect, it } from 'vitest';
import { userOf } from '../../../src/app/face-auth.js';

describe('userOf', () => {
  it('is the subject of an OAuth principal, with or without a profile, colons in the subject kept', () => {
    expect(userOf('oauth:team:user-42')).toBe('user-42');
    expect(userOf('oauth::user-42')).toBe('user-42');
    expect(userOf('oauth:team:https://idp.test/users/7')).toBe('https://idp.test/users/7');
  });
  it('is profile:<name> for a static token, so it never equals a bare subject', () => {
    expect(userOf('alice')).toBe('profile:alice');
  });
  it('is nobody for a client the face did not authenticate', () => {
    expect(userOf(undefined)).toBeUndefined();
  });
});
