import { isIP } from 'node:net';

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
