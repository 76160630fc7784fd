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

/** The common token alphabets, smallest first: a token is credited log2(size) bits per character of the first that holds it. */
const ALPHABETS: readonly (readonly [RegExp, number, string])[] = [
  [/^[0-9]+$/, 10, 'digits'],
  [/^(?:[0-9a-f]+|[0-9A-F]+)$/, 16, 'hex'],
  [/^(?:[0-9a-z]+|[0-9A-Z]+)$/, 36, 'letters of one case and digits'],
  [/^[0-9A-Za-z]+$/, 62, 'letters and digits'],
  [/^[0-9A-Za-z+/_=-]+$/, 64, 'base64'],
];

/**
 * Why an operator token is too guessable, or null. It must be at least 32 characters, not one
 * short unit repeated (nearly), worth at least 160 bits by its alphabet (40 hex or 27 base64 characters),
 * and as varied as a random string of that alphabet: its per-character (Shannon) estimate at least
 * 96 bits and half the alphabet's. That bar sits far below what random tokens reach: of 30 million
 * random 32-character base64 tokens the lowest estimate was 116 bits (the bar had been 128, which
 * 1 in 800 of them missed), so `openssl rand -hex 32` or `-base64 24` always passes, and a word
 * padded out, or one character with a few others, does not.
 */
export function tokenWeakness(token: string): string | null {
  if (token.length < 32) return `is ${token.length} characters: it must be at least 32`;
  // A unit repeated, give or take a character per 16 (`password` ×4 and a `1`): random text of
  // any of these alphabets differs from itself shifted at about 15 characters in 16.
  const slack = Math.floor(token.length / 16);
  for (let unit = 1; unit <= token.length / 2; unit++) {
    let differ = 0;
    for (let i = 0; i + unit < token.length && differ <= slack; i++) if (token[i] !== token[i + unit]) differ++;
    if (differ <= slack) return `repeats ${JSON.stringify(token.slice(0, Math.min(unit, 8)))}${unit > 8 ? '…' : ''}`;
  }
  const [, size, name] = ALPHABETS.find(([pattern]) => pattern.test(token)) ?? [null, 95, 'printable characters'];
  const alphabetBits = Math.floor(token.length * Math.log2(size));
  if (alphabetBits < 160)
    return `is ${token.length} characters of ${name}, about ${alphabetBits} bits: at least 160 needed`;
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) bitsPerChar -= (n / token.length) * Math.log2(n / token.length);
  const bits = Math.floor(bitsPerChar * token.length);
  const needed = Math.max(96, Math.ceil(alphabetBits / 2));
  return bits < needed
    ? `has too little variety (about ${bits} bits by character counts, at least ${needed} needed)`
    : null;
}
