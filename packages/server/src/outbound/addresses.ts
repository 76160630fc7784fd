import { isIP } from 'node:net';

/**
 * What kind of address an IP is, for the SSRF guard. Only `public` may be connected to (and
 * `loopback` in a sandbox). IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`,
 * compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address,
 * so `[::ffff:127.0.0.1]` is loopback and `[::ffff:10.0.0.1]` private.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'metadata'
  | 'reserved';

type V4Range = [base: number, bits: number, kind: AddressKind];
const v4 = (a: string, bits: number, kind: AddressKind): V4Range => [ipv4ToInt(a)!, bits, kind];
// Most specific first: 169.254.169.254 is metadata before it is link-local.
const V4_RANGES: V4Range[] = [
  v4('169.254.169.254', 32, 'metadata'),
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'cgnat'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

function ipv4ToInt(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function kindOfV4(n: number): AddressKind {
  for (const [base, bits, kind] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return kind;
  }
  return 'public';
}

/** The 8 16-bit groups of an IPv6 text (with an optional dotted IPv4 tail); undefined if malformed. */
function ipv6Groups(text: string): number[] | undefined {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const n = ipv4ToInt(s.slice(lastColon + 1));
    if (n === undefined) return undefined;
    tail.push(Math.floor(n / 65536), n % 65536);
    s = `${s.slice(0, lastColon + 1)}${tail.length ? '0:0' : ''}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string) =>
    h === '' ? [] : h.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 2 ? fill < 0 : fill !== 0) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return undefined;
  if (tail.length) {
    groups[6] = tail[0]!;
    groups[7] = tail[1]!;
  }
  return groups;
}

function kindOfV6(g: number[]): AddressKind {
  const [a, b, c, d, e, f, g6, h] = g as [number, number, number, number, number, number, number, number];
  const embedded = () => kindOfV4(g6 * 65536 + h);
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return 'unspecified';
  if (zeroTo(7) && h === 1) return 'loopback';
  if (zeroTo(5) && f === 0xffff) return embedded(); // ::ffff:a.b.c.d (mapped)
  if (zeroTo(6)) return embedded(); // ::a.b.c.d (compatible, deprecated)
  if (zeroTo(4) && e === 0xffff && f === 0) return embedded(); // ::ffff:0:a.b.c.d (translated)
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return embedded(); // NAT64
  if (a === 0x64 && b === 0xff9b && c === 1) return 'private'; // local-use NAT64
  if (a === 0x2002) return kindOfV4(b * 65536 + c); // 6to4 carries the IPv4 address in groups 2-3
  if (a === 0xfd00 && b === 0x0ec2 && c === 0 && d === 0 && e === 0 && f === 0 && g6 === 0 && h === 0x254)
    return 'metadata';
  if ((a & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((a & 0xffc0) === 0xfe80) return 'link-local';
  if ((a & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return 'multicast';
  if (a === 0x2001 && b === 0x0db8) return 'reserved'; // documentation
  if (a === 0x2001 && b === 0) return 'reserved'; // Teredo: the IPv4 inside is obfuscated
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return 'reserved'; // discard-only
  if (zeroTo(1) || a < 0x2000 || a > 0x3fff) return 'reserved'; // outside global unicast
  return 'public';
}

/** The kind of a literal IP address (IPv4 dotted quad or IPv6, brackets allowed); undefined if it is not one. */
export function addressKind(ip: string): AddressKind | undefined {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(text);
  if (family === 4) return kindOfV4(ipv4ToInt(text)!);
  if (family === 6) {
    const groups = ipv6Groups(text);
    return groups === undefined ? 'reserved' : kindOfV6(groups);
  }
  return undefined;
}

/** Whether a connection to `ip` is allowed: public addresses, and loopback only in a sandbox. */
export function addressAllowed(kind: AddressKind, sandbox: boolean): boolean {
  return kind === 'public' || (sandbox && kind === 'loopback');
}
