import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * IP allow-lists. Each key's list is compiled once into a node:net BlockList (keyed by the list
 * object, so a changed key, which comes back as a new object, is compiled again and the old entry
 * is garbage-collected). IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`, what a dual-stack socket
 * reports for IPv4 clients) are matched as the IPv4 address they are.
 */
const compiled = new WeakMap<readonly string[], BlockList>();

export function ipAllowed(allowList: readonly string[], address: string): boolean {
  let list = compiled.get(allowList);
  if (list === undefined) {
    list = compile(allowList);
    compiled.set(allowList, list);
  }
  const ip = unmapIPv4(address);
  const family = isIP(ip);
  if (family === 0) return false;
  try {
    return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false; // e.g. a zone id node:net will not parse: not on the list
  }
}

/** `::ffff:1.2.3.4` -> `1.2.3.4`; anything else unchanged. */
export function unmapIPv4(address: string): string {
  if (address.length > 7 && address.slice(0, 7).toLowerCase() === '::ffff:') {
    const tail = address.slice(7);
    if (isIPv4(tail)) return tail;
  }
  return address;
}

function compile(allowList: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of allowList) {
    const cidr = parseCidr(entry);
    // An entry that does not parse matches nothing (fail closed); the admin API refuses such entries.
    if (cidr !== null) list.addSubnet(cidr.network, cidr.prefix, cidr.family);
  }
  return list;
}

export interface Cidr {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/**
 * The one reader of allow-list entries, used both to accept an entry (admin API) and to match
 * against it, so an entry is never accepted that then matches nothing. `address` or
 * `address/prefix`; an IPv4-mapped IPv6 network (`::ffff:10.0.0.0/104`) is the IPv4 network it
 * maps (`10.0.0.0/8`), and a mapped prefix below 96 (`::ffff:10.0.0.0/8`) is refused because it
 * would span far more than IPv4. Zone ids and anything node:net cannot read are refused.
 */
export function parseCidr(text: string): Cidr | null {
  const entry = text.trim();
  const slash = entry.indexOf('/');
  const raw = slash === -1 ? entry : entry.slice(0, slash);
  if (raw.includes('%')) return null; // a zone id names a local interface, never a client network
  const network = unmapIPv4(raw);
  const mapped = network !== raw;
  const version = isIP(network);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const max = version === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const bits = entry.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(bits)) return null;
    prefix = Number(bits) - (mapped ? 96 : 0);
  }
  if (prefix < 0 || prefix > max) return null;
  try {
    new BlockList().addSubnet(network, prefix, family);
  } catch {
    return null;
  }
  return { network, prefix, family };
}
