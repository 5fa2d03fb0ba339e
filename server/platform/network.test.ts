import { describe, expect, it } from 'vitest';
import { hostMatches, ipv6Bytes, isLocalHost, isPublicAddress, isPublicHostName, parseTrustProxy } from './network.ts';

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

describe('isPublicAddress', () => {
  it('refuses every address that is not one host on the internet, in every spelling', () => {
    const refused = {
      loopback: ['127.0.0.1', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1'],
      unspecified: ['0.0.0.0', '0.1.2.3', '::', '0:0:0:0:0:0:0:0'],
      private: ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
      cgnat: ['100.64.0.1', '100.127.255.255'],
      linkLocal: ['169.254.169.254', 'fe80::1', 'febf::1'],
      uniqueLocal: ['fc00::1', 'fd12:3456::1'],
      multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff0e::1'],
      reservedAndBroadcast: ['240.0.0.1', '255.255.255.255'],
      benchmarking: ['198.18.0.1', '198.19.255.255', '2001:2::1'],
      documentation: ['192.0.2.1', '198.51.100.1', '203.0.113.1', '2001:db8::1', '3fff::1'],
      // The probe's addresses: the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
      mapped: ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:7F00:1', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1',
        '::ffff:0.0.0.0', '0000:0000:0000:0000:0000:ffff:7f00:0001'],
      compatible: ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::ffff:0:7f00:1'],
      nat64: ['64:ff9b::127.0.0.1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254'],
      sixToFour: ['2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1'],
      teredo: ['2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      notUnicast: ['100::1', '4000::1', 'fec0::1'],
      zoned: ['fe80::1%eth0', '2606:4700::1111%1'],
      notAnAddress: ['', 'localhost', '127.1', '0x7f000001', '2130706433', '[::1]', '1.2.3.4.5', '::ffff:999.0.0.1'],
    };
    for (const [range, addresses] of Object.entries(refused)) {
      for (const address of addresses) expect(isPublicAddress(address), `${range} ${address}`).toBe(false);
    }
  });

  it('takes public addresses, and IPv6 ones that carry a public IPv4 address', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '142.250.185.74', '172.32.0.1', '100.128.0.1', '198.20.0.1', '223.255.255.255',
      '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200a', '::ffff:8.8.8.8', '::ffff:808:808',
      '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('reads an IPv6 address into its 16 bytes, whatever its spelling', () => {
    const loopbackV4 = [...Array(10).fill(0), 0xff, 0xff, 127, 0, 0, 1];
    for (const spelling of ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '0::FFFF:7F00:0001']) {
      expect(Array.from(ipv6Bytes(spelling) ?? []), spelling).toEqual(loopbackV4);
    }
    expect(Array.from(ipv6Bytes('2001:db8::8:800:200c:417a') ?? [])).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 8, 8, 0, 0x20, 0x0c, 0x41, 0x7a]);
    expect(Array.from(ipv6Bytes('1::') ?? [])).toEqual([0, 1, ...Array(14).fill(0)]);
    for (const bad of ['1:2:3', ':::', 'fe80::1%eth0', '1.2.3.4']) expect(ipv6Bytes(bad), bad).toBeNull();
  });
});

describe('isPublicHostName', () => {
  it('refuses local names and addresses as a URL writes them, a trailing dot or not', () => {
    for (const host of ['localhost', 'localhost.', 'LOCALHOST..', 'app.localhost', 'printer.local', 'nas.lan', 'box.home.arpa',
      'metadata.google.internal', 'metadata.google.internal.', 'db.localdomain', 'wiki.intranet', 'intranet', 'metadata', '',
      '127.0.0.1', '[::1]', '[::ffff:7f00:1]', '[::ffff:a9fe:a9fe]', '[fe80::1]', '169.254.169.254']) {
      expect(isPublicHostName(host), host).toBe(false);
    }
  });

  it('takes public names and addresses (what a name resolves to is checked when sending)', () => {
    for (const host of ['fcm.googleapis.com', 'fcm.googleapis.com.', 'web.push.apple.com', '8.8.8.8', '[2606:4700:4700::1111]',
      'localhost.example.com', '127.0.0.1.nip.io']) {
      expect(isPublicHostName(host), host).toBe(true);
    }
  });
});

describe('hostMatches', () => {
  const services = ['fcm.googleapis.com', 'notify.windows.com'];
  it('takes a listed host and the names under it, and nothing else', () => {
    for (const host of ['fcm.googleapis.com', 'FCM.googleapis.com.', 'wns2-par02p.notify.windows.com', 'a.b.notify.windows.com']) {
      expect(hostMatches(host, services), host).toBe(true);
    }
    for (const host of ['googleapis.com', 'notfcm.googleapis.com', 'fcm.googleapis.com.evil.example', 'evil-notify.windows.com',
      'windows.com', 'evil.example', '[::1]']) {
      expect(hostMatches(host, services), host).toBe(false);
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
