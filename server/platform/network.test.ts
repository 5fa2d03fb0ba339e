import { describe, expect, it } from 'vitest';
import { isLocalHost, parseTrustProxy } from './network.ts';

describe('isLocalHost', () => {
  it('takes loopback, private ranges and local names for local', () => {
    for (const host of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.5', '172.31.255.255',
      '192.168.1.20', '169.254.10.1', '100.64.0.1', '0.0.0.0', '[::1]', '[fd12:3456::1]', '[fe80::1]', '[::ffff:192.168.0.2]',
      'laptop.local', 'nas.lan', 'box.home.arpa', 'intranet']) {
      expect(isLocalHost(host), host).toBe(true);
    }
  });

  it('takes every other address and name for public', () => {
    for (const host of ['earn.example.com', '8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '11.0.0.1', '100.128.0.1',
      '[2001:db8::1]', '[::ffff:8.8.8.8]', 'localhost.example.com']) {
      expect(isLocalHost(host), host).toBe(false);
    }
  });
});

describe('parseTrustProxy', () => {
  it('reads nothing, a hop count, or addresses and ranges', () => {
    expect(parseTrustProxy(undefined)).toEqual({ ok: true, trust: false });
    expect(parseTrustProxy('')).toEqual({ ok: true, trust: false });
    expect(parseTrustProxy('2')).toEqual({ ok: true, trust: 2 });
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual({ ok: true, trust: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'] });
  });

  it('refuses trusting anyone, names and broken ranges', () => {
    for (const value of ['true', '*', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x', ',']) {
      expect(parseTrustProxy(value), value).toEqual({ ok: false });
    }
  });
});
