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
  for (const entry of allowList) addEntry(list, entry.trim());
  return list;
}

/** Adds `address` or `address/prefix`; an entry we cannot read matches nothing (fail closed). */
function addEntry(list: BlockList, entry: string): void {
  const slash = entry.indexOf('/');
  const raw = slash === -1 ? entry : entry.slice(0, slash);
  const network = unmapIPv4(raw);
  const family = isIP(network);
  if (family === 0) return;
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const bits = entry.slice(slash + 1);
    if (!/^[0-9]{1,3}$/.test(bits)) return;
    // A mapped network such as ::ffff:10.0.0.0/104 is the IPv4 network 10.0.0.0/8.
    prefix = Number(bits) - (network === raw ? 0 : 96);
  }
  if (prefix < 0 || prefix > max) return;
  try {
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    // unreadable for node:net (e.g. a zone id): leave it out, as above
  }
}
