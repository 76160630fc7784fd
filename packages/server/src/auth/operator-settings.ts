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
  [/^(?:[0-9a-f-]+|[0-9A-F-]+)$/, 17, 'hex and dashes'],
  [/^(?:[a-z]+|[A-Z]+)$/, 26, 'letters of one case'],
  [/^(?:[0-9a-z]+|[0-9A-Z]+)$/, 36, 'letters of one case and digits'],
  [/^[A-Za-z]+$/, 52, 'letters'],
  [/^[0-9A-Za-z]+$/, 62, 'letters and digits'],
  [/^[0-9A-Za-z+/_=-]+$/, 64, 'base64'],
];

/**
 * Why an operator token is too guessable, or null: a guard against mistakes (a short or patterned
 * token, a word), not a measure of randomness (a mixed-case passphrase passes; only a dictionary
 * would tell). It must be 32 or more visible ASCII characters (what an Authorization header can
 * carry), not a unit repeated even with a third of it changed (`hunter2hunter3hunter4…`), worth at
 * least 160 bits by its alphabet (40 hex characters; 32 of letters and digits or base64), and as
 * varied as random text of that alphabet: a per-character (Shannon) estimate of at least 96 bits
 * and half the alphabet's. Random tokens sit far above that bar: of 30 million random
 * 32-character base64url tokens the lowest estimate was 116 bits. The bar had been 128, which 1 in
 * about 6,000 of them missed, so `openssl rand -base64 24` could stop a server at start.
 */
export function tokenWeakness(token: string): string | null {
  if (!/^[\x21-\x7e]*$/.test(token))
    return 'has a character outside visible ASCII (no spaces, no accents): a bearer token must be sent in a header as it is';
  if (token.length < 32) return `is ${token.length} characters: it must be at least 32`;
  // Random text of any of these alphabets matches itself shifted at 1 character in 10 or fewer.
  for (let unit = 1; unit <= token.length / 2; unit++) {
    const compared = token.length - unit;
    const allowed = Math.floor(compared / 3);
    let differ = 0;
    for (let i = 0; i < compared && differ <= allowed; i++) if (token[i] !== token[i + unit]) differ++;
    if (differ <= allowed) return `repeats ${JSON.stringify(token.slice(0, Math.min(unit, 8)))}${unit > 8 ? '…' : ''}`;
  }
  const [, size, name] = ALPHABETS.find(([pattern]) => pattern.test(token)) ?? [null, 94, 'visible characters'];
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
