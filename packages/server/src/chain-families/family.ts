/**
 * What hostpay knows of a chain family: how its addresses are derived, spelled, checked, matched
 * and offered to a payer, and which adapter kinds talk to its nodes. Every feature asks the family
 * of a chain (`familyOf(chain.family)`, index.ts) instead of branching on its name, so a family's
 * rules live in its own folder and nowhere else.
 */

export type ChainNetwork = 'mainnet' | 'testnet' | 'regtest';

/** The hash and encoding functions an address is spelled with (@noble/hashes, @scure/base), and three helpers over them (encoding.ts). */
export interface EncodeLib {
  keccak_256: (data: Uint8Array) => Uint8Array;
  sha256: (data: Uint8Array) => Uint8Array;
  ripemd160: (data: Uint8Array) => Uint8Array;
  bech32: { encode: (prefix: string, words: number[]) => string; toWords: (bytes: Uint8Array) => number[] };
  base58check: { encode: (data: Uint8Array) => string };
  hexOf: (bytes: Uint8Array) => string;
  /** EIP-55 spelling of a lower-case hex address, `0x` included. */
  eip55: (lowerHex: string) => string;
  /** SEC1 compression of an uncompressed point. */
  compress: (uncompressed: Uint8Array) => Uint8Array;
}

/**
 * The address of an uncompressed secp256k1 point. The address prefetch worker evaluates its
 * source text, so it may use only its parameters and JavaScript built-ins, never a name of its module.
 */
export type AddressEncoding = (lib: EncodeLib, prefix: string, uncompressed: Uint8Array) => string;

/** A BIP-32 public key form (xpub, tpub, zpub, vpub). */
export interface KeyForm {
  name: string;
  testnet: boolean;
  segwit: boolean;
}

/** A destination as stored, or why it is refused (`burn`: nobody holds its key). */
export type AddressVerdict = { address: string } | { why: string; burn?: false } | { why: string; burn: true };

/** What the payment page's URI is built from. Amounts are exact decimal text. */
export interface UriInput {
  family: string;
  /** The chain's catalog network: 'mainnet' | 'testnet' | 'regtest'. */
  networkType: string;
  chain: string;
  address: string;
  /** Null for the chain's native coin. */
  tokenContract: string | null;
  /** Fractional digits of the asset. */
  decimals: number;
  /** Exact decimal text of what is still to pay. */
  amount: string;
}

export interface TokenContracts {
  /** How a watch and a message describe the spelling ("0x address (40 hex digits)"). */
  readonly described: string;
  /** The shape a watch's contract must have. */
  readonly pattern: RegExp;
  /** The contract as the catalog stores it (trimmed, checksummed), or why it is refused (naming `text` as given). */
  check(text: string): { contract: string } | { why: string };
  /** The contract as the watcher compares it. */
  watchSpelling(contract: string): string;
}

/** The refund page's address field of a family (see `ChainFamily.addressField`). */
export interface AddressField {
  starts: readonly string[];
  /** Characters in all, prefix included, when every address has the same length. */
  length?: number;
  /** Hex digits after the prefix, when that is the whole address. */
  hexDigits?: number;
  pattern: string | null;
}

export interface ChainFamily {
  /** As stored in `chains.family` and shown by the API and the CLI. */
  readonly name: string;
  /** For messages: "Bitcoin", "EVM", "TRON". */
  readonly title: string;
  /** A new chain's `confirmationsRequired` (spec/checkout.md). */
  readonly defaultConfirmations: number;
  /** The native coin's decimals a watch assumes (wei, satoshis, sun). */
  readonly nativeDecimals: number;

  /** BIP-44/84 purpose of its account keys, for the depth message. */
  readonly purpose: number;
  /** Why a key of this form is refused for a chain of the family on `network`; undefined: accepted. */
  refuseKeyForm(form: KeyForm, network: ChainNetwork): string | undefined;
  /** The prefix `encodeAddress` takes on `network` (the bech32 human-readable part; '' if none). */
  addressPrefix(network: string): string;
  /** Spells the address of a derived public key (self-contained: see `AddressEncoding`). */
  readonly encodeAddress: AddressEncoding;

  /** A payout or refund destination (trimmed, non-empty) as stored, or why it is refused. */
  checkAddress(address: string, network: string): AddressVerdict;
  /** The spelling a reported transfer's address is matched in (deposit addresses are stored in it). */
  matchSpelling(address: string): string;
  /**
   * What the refund page's address field says it takes, as facts the page writes in the payer's
   * language: the prefixes an address starts with, then either its whole length or the number of
   * hex digits after the prefix when fixed; and the browser's shape check (`pattern`).
   */
  addressField(network: string): AddressField;

  /** Token contracts on chains of the family; null: it has none (the native coin only). */
  readonly tokens: TokenContracts | null;

  /** What the QR code holds: a payment URI, or the plain address where wallets agree on no scheme. */
  paymentUri(o: UriInput): string;
  /** Whether `paymentUri` is a URI of a scheme wallets register (so it can be an "Open in a wallet app" link). */
  readonly walletScheme: boolean;

  /** The chain-watch adapter kinds that talk to its nodes, the default first. */
  readonly adapterKinds: readonly string[];
  /** Whether the hot wallet can send payouts on its chains. */
  readonly hotWallet: boolean;
}
