import { parseCidr } from './cidr.js';
import type { Config } from '../config.js';

/** Operator access settings, parsed at start-up: a bad entry stops the process naming the variable. */

/** HOSTPAY_ADMIN_IP_ALLOW_LIST as entries; null when empty (any address). A bad entry stops the start. */
export function adminAllowList(config: Pick<Config, 'adminIpAllowList'>): string[] | null {
  const entries = config.adminIpAllowList
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  for (const entry of entries) {
    if (parseCidr(entry) === null)
      throw new Error(
        `invalid configuration HOSTPAY_ADMIN_IP_ALLOW_LIST: ${JSON.stringify(entry)} is not an IP address or CIDR range (e.g. 10.0.0.0/8, 2001:db8::/32)`,
      );
  }
  return entries;
}

/** Operator tokens by name, from HOSTPAY_ADMIN_TOKEN and HOSTPAY_ADMIN_TOKENS. */
export function adminTokens(config: Pick<Config, 'adminToken' | 'adminTokens'>): Map<string, string> {
  const tokens = new Map<string, string>();
  const add = (name: string, token: string) => {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
      throw new Error(
        `invalid configuration HOSTPAY_ADMIN_TOKENS: operator name ${JSON.stringify(name)} must be 1-64 letters, digits, _ . -`,
      );
    const weakness = tokenWeakness(token);
    if (weakness !== null)
      throw new Error(
        `invalid configuration: the operator token of ${name} ${weakness}; generate one with openssl rand -hex 32`,
      );
    tokens.set(name, token);
  };
  if (config.adminToken !== '') add('admin', config.adminToken);
  for (const entry of config.adminTokens
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const colon = entry.indexOf(':');
    if (colon < 1) throw new Error('invalid configuration HOSTPAY_ADMIN_TOKENS: use name:token,name:token');
    add(entry.slice(0, colon), entry.slice(colon + 1));
  }
  return tokens;
}

/**
 * Why an operator token is too guessable, or null. It must be at least 32 characters, not one
 * short unit repeated, and carry at least 128 bits by a per-character (Shannon) estimate: a random
 * hex or base64 token of 32+ characters passes; `aaaa…`, `abab…`, a word padded out do not.
 */
export function tokenWeakness(token: string): string | null {
  if (token.length < 32) return `is ${token.length} characters: it must be at least 32`;
  for (let unit = 1; unit <= token.length / 2; unit++) {
    if (token.length % unit === 0 && token.slice(unit) + token.slice(0, unit) === token)
      return `repeats ${JSON.stringify(token.slice(0, Math.min(unit, 8)))}${unit > 8 ? '…' : ''}`;
  }
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / token.length) * Math.log2(n / token.length);
  const bits = Math.floor(bitsPerChar * token.length);
  return bits < 128 ? `has too little variety (about ${bits} bits, at least 128 needed)` : null;
}
