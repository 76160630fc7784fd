import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { invalid } from '../../admin/deps.js';
import { FAMILY_NAMES, familyOf, isFamilyName, type FamilyName } from '../../chain-families/index.js';
import type { ChainNetwork } from '../../chain-families/family.js';

/**
 * The rules of catalog fields, checked in the service so that every caller (API, CLI, demo) gets
 * the same message naming the field and what it accepts.
 */
export const NETWORK_TYPES: readonly ChainNetwork[] = ['mainnet', 'testnet', 'regtest'];

/** Confirmations a payment needs before it counts, by default: the family's (spec/checkout.md). */
export const defaultConfirmations = (family: FamilyName): number => familyOf(family).defaultConfirmations;
export const MAX_CONFIRMATIONS = 1000;
export const MAX_PRECISION = 18;

const base58check = createBase58check(sha256);

export function checkFamily(text: string): FamilyName {
  const family = text.toLowerCase();
  if (isFamilyName(family)) return family;
  return invalid(
    `family must be one of ${FAMILY_NAMES.join(', ')} (how deposit addresses are derived and spelled), got ${JSON.stringify(text)}`,
  );
}

export function checkNetworkType(text: string): ChainNetwork {
  const type = NETWORK_TYPES.find((t) => t === text.toLowerCase());
  return type ?? invalid(`networkType must be one of ${NETWORK_TYPES.join(', ')}, got ${JSON.stringify(text)}`);
}

export function checkConfirmations(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONFIRMATIONS)
    invalid(`confirmationsRequired must be a whole number from 1 to ${MAX_CONFIRMATIONS}, got ${n}`);
  return n;
}

/** Longest explorer link template accepted. */
export const MAX_EXPLORER_URL = 300;

/**
 * A block explorer's transaction link: an https URL with `{tx}` once, where the payment page
 * puts the transaction hash. No credentials in it: it is shown to every payer.
 */
export function checkExplorerTxUrl(text: string | null): string | null {
  if (text === null) return null;
  const value = text.trim();
  const help =
    'explorerTxUrl must be an https URL with {tx} where the transaction hash goes, e.g. https://tronscan.org/#/transaction/{tx}';
  if (value.length > MAX_EXPLORER_URL) invalid(`${help}; at most ${MAX_EXPLORER_URL} characters`);
  if (value.split('{tx}').length !== 2) invalid(`${help}: {tx} must appear exactly once, got ${JSON.stringify(text)}`);
  let url: URL;
  try {
    url = new URL(value.replace('{tx}', 'tx'));
  } catch {
    return invalid(`${help}, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:') invalid(`${help}: it must start with https://, got ${JSON.stringify(text)}`);
  if (url.username !== '' || url.password !== '') invalid(`${help}: no user name or password in it`);
  if (/[\s<>"'`]/.test(value)) invalid(`${help}: no spaces, quotes or angle brackets`);
  return value;
}

export function checkPrecision(n: number): number {
  if (!Number.isInteger(n) || n < 0 || n > MAX_PRECISION)
    invalid(`precision must be a whole number of decimal places from 0 to ${MAX_PRECISION}, got ${n}`);
  return n;
}

export function checkName(what: string, text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 100) invalid(`${what} name must be 1 to 100 characters`);
  return name;
}

// A file name only: it is joined to an image base URL by whoever shows it, so no paths or URLs.
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function checkImage(text: string): string {
  if (!IMAGE.test(text) || text.includes('..'))
    invalid(
      `image must be a file name such as usdt.png (letters, digits, . _ -; no path), got ${JSON.stringify(text)}`,
    );
  return text;
}

/**
 * A token contract as stored (the family's rule: EVM `0x` + 40 hex in its EIP-55 spelling, TRON a
 * base58check `T…` address), null for a chain's native coin. A mixed-case EVM address must carry a
 * valid EIP-55 checksum: a mistyped letter is then caught here rather than in a payer's wallet.
 */
export function checkTokenContract(familyName: string, text: string | null): string | null {
  if (text === null) return null;
  const family = familyOf(familyName);
  if (family.tokens === null)
    invalid(`${family.title} chains have no token contracts: leave tokenContract null (the native coin)`);
  const checked = family.tokens.check(text);
  return 'contract' in checked ? checked.contract : invalid(checked.why);
}

/** The BIP-32 fingerprint of an extended key (first 4 bytes of HASH160 of its public key), hex. */
export function keyFingerprint(xpub: string): string {
  const bytes = base58check.decode(xpub);
  return Array.from(ripemd160(sha256(bytes.subarray(45, 78))).subarray(0, 4), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/** Enough of a key to tell it apart in a list, without printing it whole. */
export const keyPreview = (xpub: string): string => `${xpub.slice(0, 12)}…${xpub.slice(-6)}`;
