import { describe, expect, it } from 'vitest';
import {
  ACCEPT_BOTH,
  ACCEPT_EVENT_STREAM,
  ACCEPT_JSON,
  OriginPolicy,
  acceptFlags,
  hostAllowed,
  hostName,
  isJsonContentType,
  isLoopbackAddress,
  loopbackHostNames,
  normalizeOrigin,
} from '../../../src/inbound/http-checks.js';

describe('normalizeOrigin', () => {
  it('lowercases, drops default ports and keeps explicit ones', () => {
    expect(normalizeOrigin('HTTP://Example.COM:80')).toBe('http://example.com');
    expect(normalizeOrigin('https://example.com:443')).toBe('https://example.com');
    expect(normalizeOrigin('https://example.com:8443')).toBe('https://example.com:8443');
    expect(normalizeOrigin('http://[::1]:3000')).toBe('http://[::1]:3000');
    expect(normalizeOrigin('http://localhost:3000/')).toBe('http://localhost:3000');
  });

  it('refuses anything that is not a plain http(s) origin', () => {
    for (const bad of ['null', '', 'localhost:3000', 'file:///etc', 'ftp://x.org', 'http://a@localhost', 'http://localhost/x', 'http://localhost?q']) {
      expect(normalizeOrigin(bad), bad).toBeUndefined();
    }
  });
});

describe('OriginPolicy', () => {
  const policy = new OriginPolicy(['https://App.Example.com', 'http://tool.internal:8080']);

  it('allows a missing Origin (non-browser clients)', () => {
    expect(policy.allows(undefined)).toBe(true);
  });

  it('allows loopback origins on any port and scheme', () => {
    for (const ok of ['http://localhost', 'http://localhost:5173', 'https://LOCALHOST:1', 'http://127.0.0.1:9', 'http://[::1]:80']) {
      expect(policy.allows(ok), ok).toBe(true);
    }
  });

  it('allows configured origins after normalization, exactly', () => {
    expect(policy.allows('https://app.example.com')).toBe(true);
    expect(policy.allows('https://app.example.com:443')).toBe(true);
    expect(policy.allows('http://tool.internal:8080')).toBe(true);
    expect(policy.allows('http://app.example.com')).toBe(false);
    expect(policy.allows('https://app.example.com:444')).toBe(false);
    expect(policy.allows('http://tool.internal')).toBe(false);
  });

  it('refuses foreign, opaque and look-alike origins', () => {
    for (const bad of ['https://evil.example', 'null', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io', 'http://localhost, http://evil.example']) {
      expect(policy.allows(bad), bad).toBe(false);
    }
  });

  it('throws on a configured origin it cannot understand', () => {
    expect(() => new OriginPolicy(['not an origin'])).toThrow(/allowedOrigins/);
  });
});

describe('Host checks', () => {
  it('extracts the host name without the port', () => {
    expect(hostName('LocalHost:8080')).toBe('localhost');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName('[::1]')).toBe('[::1]');
    expect(hostName('[::1')).toBeUndefined();
    expect(hostName('localhost:abc')).toBeUndefined();
    expect(hostName('a:b:c')).toBeUndefined();
    expect(hostName(':80')).toBeUndefined();
  });

  it('accepts loopback names and the bound address only', () => {
    const names = loopbackHostNames('127.0.0.2');
    for (const ok of ['localhost:1234', '127.0.0.1', '[::1]:9', '127.0.0.2:80', undefined]) {
      expect(hostAllowed(ok, names), String(ok)).toBe(true);
    }
    for (const bad of ['evil.example', 'evil.example:1234', 'localhost.evil.example', '127.0.0.3', '']) {
      expect(hostAllowed(bad, names), bad).toBe(false);
    }
    expect(hostAllowed('[::2]:80', loopbackHostNames('::2'))).toBe(true);
  });

  it('recognizes loopback bind addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
    expect(isLoopbackAddress('::')).toBe(false);
    expect(isLoopbackAddress('192.168.1.2')).toBe(false);
  });
});

describe('acceptFlags', () => {
  it('reads what clients send', () => {
    expect(acceptFlags('application/json, text/event-stream')).toBe(ACCEPT_BOTH);
    expect(acceptFlags('text/event-stream,application/json;q=0.9')).toBe(ACCEPT_BOTH);
    expect(acceptFlags('Application/JSON ; charset=utf-8 , TEXT/EVENT-STREAM')).toBe(ACCEPT_BOTH);
    expect(acceptFlags('application/json')).toBe(ACCEPT_JSON);
    expect(acceptFlags('text/event-stream')).toBe(ACCEPT_EVENT_STREAM);
    expect(acceptFlags(undefined)).toBe(0);
    expect(acceptFlags('text/html')).toBe(0);
  });

  it('counts wildcards and skips q=0', () => {
    expect(acceptFlags('*/*')).toBe(ACCEPT_BOTH);
    expect(acceptFlags('application/*, text/*')).toBe(ACCEPT_BOTH);
    expect(acceptFlags('application/json, text/event-stream;q=0')).toBe(ACCEPT_JSON);
    expect(acceptFlags('*/*;q=0.0')).toBe(0);
  });

  it('gives the same answer from its memo', () => {
    const value = 'application/json, text/event-stream;q=0';
    expect(acceptFlags(value)).toBe(ACCEPT_JSON);
    expect(acceptFlags(value)).toBe(ACCEPT_JSON);
    expect(acceptFlags('text/event-stream')).toBe(ACCEPT_EVENT_STREAM);
  });
});

describe('isJsonContentType', () => {
  it('matches the essence and ignores parameters', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType(' Application/JSON ;charset=UTF-8')).toBe(true);
  });

  it('refuses other types', () => {
    for (const bad of [undefined, '', 'text/plain', 'application/jsonx', 'application/x-www-form-urlencoded', 'text/json']) {
      expect(isJsonContentType(bad), String(bad)).toBe(false);
    }
  });
});
