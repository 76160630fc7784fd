import type { SecretBox } from '../../crypto/secret-box.js';
import type { Hex } from 'viem';

/** Who a chain's sealed hot wallet key belongs to (the box binds a sealed value to its owner). */
export const hotWalletOwner = (chainId: string) => `hot_wallet:${chainId}`;

const KEY = /^(0x)?[0-9a-fA-F]{64}$/;

/** A private key as the operator may give it (with or without 0x), or null when it is not one. */
export function normaliseKey(text: string): Hex | null {
  const trimmed = text.trim();
  if (!KEY.test(trimmed)) return null;
  return (trimmed.startsWith('0x') ? trimmed.toLowerCase() : `0x${trimmed.toLowerCase()}`) as Hex;
}

/** Opens the sealed key only for the moment it signs; the text never leaves this function's callers. */
export function openKey(box: SecretBox, sealed: string, chainId: string): Hex {
  return box.open(sealed, hotWalletOwner(chainId)).toString('utf8') as Hex;
}
