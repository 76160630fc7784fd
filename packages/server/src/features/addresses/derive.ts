import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { HostpayError } from '../../errors.js';
import { familyOf, type FamilyName } from '../../chain-families/index.js';
import type { ChainNetwork } from '../../chain-families/family.js';
import { base58check, lib } from '../../chain-families/encoding.js';
import { encodeAddress } from '../../chain-families/worker-encoding.js';
import { type Branch, refill, takeAhead } from './prefetch.js';
import { tweakCurve } from './tweak-curve.js';

/**
 * Watch-only deposit addresses: the i-th receive address `<account key>/0/i` of an account-level
 * extended public key, for BTC (BIP-84 P2WPKH), EVM chains (BIP-44, EIP-55) and TRON (BIP-44,
 * base58check). Audited libraries do the cryptography (@scure/bip32 parses keys and takes BIP-32's
 * rare retry cases, libsecp256k1 — native, or as WebAssembly (tweak-curve.ts) — adds the child tweak,
 * @noble/hashes and @scure/base hash and encode); this file only decides which keys are acceptable
 * and which keys a family takes (chain-families/). Private keys are refused, never held.
 */

export type { ChainNetwork } from '../../chain-families/family.js';

/** BIP-32 public version bytes, and what each form means. */
const PUBLIC_VERSIONS = new Map<number, { name: string; testnet: boolean; segwit: boolean }>([
  [0x0488b21e, { name: 'xpub', testnet: false, segwit: false }],
  [0x043587cf, { name: 'tpub', testnet: true, segwit: false }],
  [0x04b24746, { name: 'zpub', testnet: false, segwit: true }],
  [0x045f1cf6, { name: 'vpub', testnet: true, segwit: true }],
]);
const PRIVATE_VERSIONS = new Set([0x0488ade4, 0x04358394, 0x04b2430c, 0x045f18bc]);
/** The BIP-32 versions @scure/bip32 parses the re-encoded key with. */
const BIP32_MAINNET = { private: 0x0488ade4, public: 0x0488b21e };
const BIP32_TESTNET = { private: 0x04358394, public: 0x043587cf };

export interface AccountKey {
  family: FamilyName;
  network: ChainNetwork;
  /** The key as the operator gave it (xpub, tpub, zpub or vpub form). */
  text: string;
  hd: HDKey;
  /** `<account>/0`, derived once on first use (the receive branch every address hangs off), with its uncompressed point and the children computed ahead. */
  receive?: Branch & { hd: HDKey };
}

const refuse = (why: string): never => {
  throw new HostpayError('INVALID_BODY', `extended public key refused: ${why}`, { field: 'xpub' });
};

/**
 * Parses an operator's account-level extended public key for a chain of `family` on `network`.
 * Refused with 400 INVALID_BODY, saying why: not base58check, a private key, the wrong network's
 * form, or a key that is not at account level (depth 3: m/purpose'/coin'/account').
 */
export function parseAccountKey(text: string, family: FamilyName, network: ChainNetwork): AccountKey {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > 200)
    refuse('send the account-level xpub (111 characters, starting xpub, tpub, zpub or vpub)');
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(trimmed);
  } catch {
    return refuse('it is not a base58check extended key (a character is mistyped or the checksum does not match)');
  }
  if (bytes.length !== 78) refuse(`it decodes to ${bytes.length} bytes, an extended key has 78`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  if (PRIVATE_VERSIONS.has(version) || bytes[45] === 0)
    refuse('it is a private key (xprv/tprv/zprv/vprv): give the server only the public key, never a private one');
  const form = PUBLIC_VERSIONS.get(version);
  if (form === undefined)
    refuse(`unknown version bytes 0x${version.toString(16).padStart(8, '0')}: use the xpub, tpub, zpub or vpub form`);
  const rules = familyOf(family);
  const wrongForm = rules.refuseKeyForm(form!, network);
  if (wrongForm !== undefined) refuse(wrongForm);
  const depth = bytes[4];
  if (depth !== 3)
    refuse(`it is at depth ${depth}; give the account-level key (depth 3, m/${rules.purpose}'/coin'/account')`);
  // zpub/vpub are the same key under SLIP-132 version bytes: re-encode under xpub/tpub for BIP-32.
  const versions = form!.testnet ? BIP32_TESTNET : BIP32_MAINNET;
  view.setUint32(0, versions.public);
  let hd: HDKey;
  try {
    hd = HDKey.fromExtendedKey(base58check.encode(bytes), versions);
  } catch (err) {
    return refuse(`it is not a valid public key (${(err as Error).message})`);
  }
  return { family, network, text: trimmed, hd };
}

export interface DerivedAddress {
  index: number;
  address: string;
  /** Compressed SEC1 public key, hex. */
  publicKey: string;
}

/** The receive address `<account>/0/index` (non-hardened steps only: watch-only derivation). */
export function deriveAddress(account: AccountKey, index: number): DerivedAddress {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000)
    throw new RangeError(`address index ${index} is not a non-hardened child index`);
  if (account.receive === undefined) {
    const hd = account.hd.deriveChild(0);
    account.receive = {
      hd,
      publicKey: hd.publicKey!,
      chainCode: hd.chainCode!,
      point: secp256k1.Point.fromBytes(hd.publicKey!).toBytes(false),
      family: account.family,
      prefix: familyOf(account.family).addressPrefix(account.network),
      ahead: new Map(),
      requestedTo: 0,
      pending: undefined,
    };
  }
  const branch = account.receive;
  const ahead = takeAhead(branch, index);
  const uncompressed =
    ahead?.point ??
    childPoint(branch.hd, branch.point, index) ??
    secp256k1.Point.fromBytes(branch.hd.deriveChild(index).publicKey!).toBytes(false);
  refill(branch, index);
  return {
    index,
    address: ahead?.address ?? encodeAddress(account.family, branch.prefix, uncompressed),
    publicKey: hex(lib.compress(uncompressed)),
  };
}

const ORDER = secp256k1.Point.Fn.ORDER;

/**
 * The parent's chain code as a KeyObject, made once: given raw bytes, createHmac prepares a key
 * object on every call, which costs several times the HMAC itself.
 */
const macKeys = new WeakMap<HDKey, KeyObject>();

/**
 * BIP-32 public child derivation (CKDpub) on the parent's uncompressed point: @scure/bip32 would
 * decode the parent's compressed key (a square root) on every call, and EVM and TRON addresses
 * need the uncompressed child, another one. Undefined in BIP-32's retry cases (tweak ≥ n, or the
 * point at infinity), which are left to @scure/bip32; the address vectors check every byte.
 */
function childPoint(parent: HDKey, parentPoint: Uint8Array, index: number): Uint8Array | undefined {
  const data = Buffer.allocUnsafe(37);
  data.set(parent.publicKey!, 0);
  data.writeUInt32BE(index, 33);
  let key = macKeys.get(parent);
  if (key === undefined) {
    key = createSecretKey(parent.chainCode!);
    macKeys.set(parent, key);
  }
  const I = createHmac('sha512', key).update(data).digest();
  const tweakBytes = I.subarray(0, 32);
  let tweak = 0n;
  for (let i = 0; i < 32; i++) tweak = (tweak << 8n) | BigInt(tweakBytes[i]!);
  if (tweak === 0n || tweak >= ORDER) return undefined;
  return tweakCurve().curve.pointAddScalar(parentPoint, tweakBytes, false) ?? undefined;
}

/** EIP-55 checksum of a lower-case hex address (the same code the prefetch worker runs). */
export { eip55 } from '../../chain-families/encoding.js';

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
