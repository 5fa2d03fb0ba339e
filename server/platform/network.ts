import { BlockList, isIP } from 'node:net';

/** IPv4 ranges no one outside a network reaches: loopback, private, link-local, carrier NAT. */
const LOCAL_V4: [number, number][] = [
  [0x7f000000, 8], // 127.0.0.0/8
  [0x0a000000, 8], // 10.0.0.0/8
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0a80000, 16], // 192.168.0.0/16
  [0xa9fe0000, 16], // 169.254.0.0/16
  [0x64400000, 10], // 100.64.0.0/10
  [0x00000000, 32], // 0.0.0.0
];

const v4 = (address: string) => address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const inV4 = (address: string, [base, bits]: [number, number]) =>
  bits === 0 || Math.floor(v4(address) / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits));

/** Names that only resolve inside a network: localhost, mDNS and home-network suffixes, one label. */
const LOCAL_NAMES = /(^|\.)(localhost|local|lan|internal|home\.arpa)$/;

/**
 * Whether an address's host can only be reached from this machine or its own network (a laptop,
 * a LAN address, an intranet name), rather than from anywhere: a public address.
 */
export function isLocalHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(name) === 4) return LOCAL_V4.some((range) => inV4(name, range));
  if (isIP(name) === 6) {
    if (name === '::1' || name === '::') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name)?.[1];
    if (mapped) return isLocalHost(mapped);
    const first = Number.parseInt(name.split(':')[0] || '0', 16);
    // fc00::/7 unique local, fe80::/10 link-local.
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
  }
  return !name.includes('.') || LOCAL_NAMES.test(name);
}

/** IPv4 ranges that are not one host on the internet (IANA's special-purpose registry): never sent to. */
const NOT_PUBLIC_V4 = blockList('ipv4', [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, where clouds keep their metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays, deprecated
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
]);

/** Global unicast IPv6 (2000::/3): everything outside it is local, multicast or reserved. */
const GLOBAL_V6 = blockList('ipv6', [['2000::', 3]]);
/** Parts of 2000::/3 that are not one host on the internet. */
const NOT_PUBLIC_V6 = blockList('ipv6', [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]);

function blockList(family: 'ipv4' | 'ipv6', subnets: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, bits] of subnets) list.addSubnet(network, bits, family);
  return list;
}

/**
 * An IPv6 address as its 16 bytes, or null. The URL parser canonicalises it first (hex groups,
 * no dotted tail: `::ffff:127.0.0.1` becomes `::ffff:7f00:1`), so only `::` is left to expand.
 * A zone (`fe80::1%eth0`) is no address of the internet: null.
 */
export function ipv6Bytes(ip: string): Uint8Array | null {
  if (!URL.canParse(`http://[${ip}]`)) return null;
  const canonical = new URL(`http://[${ip}]`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
const dotted = (bytes: Uint8Array, at: number) => Array.from(bytes.subarray(at, at + 4)).join('.');
const colons = (bytes: Uint8Array) =>
  Array.from({ length: 8 }, (_, i) => (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16)).join(':');

/**
 * Whether a connection to this IP address (v4 or v6, any spelling) reaches a host on the
 * internet rather than this machine, its network, or nothing: what a server may send to on a
 * holder's say-so. An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) is judged by it too.
 */
export function isPublicAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return !NOT_PUBLIC_V4.check(ip, 'ipv4');
  const bytes = kind === 6 ? ipv6Bytes(ip) : null;
  if (!bytes) return false;
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d, and ::ffff:0:0/96 the
  // mapped ones: the stack reaches the IPv4 address itself.
  if (startsWith(bytes, Array(12).fill(0))) return false;
  if (startsWith(bytes, [...Array(10).fill(0), 0xff, 0xff])) return isPublicAddress(dotted(bytes, 12));
  // NAT64 (64:ff9b::/96) is translated to its IPv4 address; 6to4 (2002::/16) tunnels to it.
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...Array(8).fill(0)])) return isPublicAddress(dotted(bytes, 12));
  if (startsWith(bytes, [0x20, 0x02]) && !isPublicAddress(dotted(bytes, 2))) return false;
  const address = colons(bytes);
  return GLOBAL_V6.check(address, 'ipv6') && !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** Names only a network of its own resolves: localhost, mDNS, intranet and cloud-internal suffixes. */
const PRIVATE_NAMES = /(^|\.)(localhost|localdomain|local|lan|internal|intranet|home\.arpa)$/;

/**
 * Whether an address's host (a URL's hostname: a name, an IPv4 address or a bracketed IPv6 one)
 * is written as a public host: a public address, or a name of two labels or more outside the
 * private suffixes. A name's trailing dot (`localhost.`) is dropped first. What a name resolves
 * to is not known here: the sender checks the addresses it connects to.
 */
export function isPublicHostName(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
  if (isIP(name)) return isPublicAddress(name);
  return name.includes('.') && !PRIVATE_NAMES.test(name);
}

/** Whether `host` is one of `suffixes` or a name under one (`wns2-par02p.notify.windows.com`). */
export function hostMatches(host: string, suffixes: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return suffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: unset trusts no proxy (X-Forwarded-For is
 * ignored); a whole number trusts that many hops; otherwise addresses and CIDR ranges, checked
 * here (`true`, trusting anyone, would let a client forge its address: refused). Returns why a
 * value is wrong instead of throwing, for the configuration's own message.
 */
export function parseTrustProxy(value: string | undefined): { ok: true; trust: false | number | string[] } | { ok: false } {
  if (value === undefined || value.trim() === '') return { ok: true, trust: false };
  if (/^\d+$/.test(value.trim())) return { ok: true, trust: Number(value.trim()) };
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const valid = entries.every((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const kind = isIP(address);
    if (kind === 0 || rest.length > 0) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
  });
  return valid && entries.length > 0 ? { ok: true, trust: entries } : { ok: false };
}
