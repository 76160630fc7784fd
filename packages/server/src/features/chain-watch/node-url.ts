import type { LookupAddress } from 'node:dns';
import { HostpayError } from '../../errors.js';
import type { AddressKind } from '../../outbound/addresses.js';
import { bareHost, checkAddresses, RefusedAddress, type Resolver } from '../../outbound/guard.js';
import { guardedFetch } from '../../outbound/fetch.js';

/**
 * RPC URLs: checked like webhook URLs (the SSRF guard of features/webhooks, with its address
 * kinds and resolver), shown only masked. Providers put their API key in the URL (Infura
 * `/v3/<key>`, Alchemy `/v2/<key>`, `?apikey=`, `user:pass@`), so the URL is a secret: sealed at
 * rest, and everything that could be a key is masked wherever it is shown or logged.
 */
export interface RpcGuard {
  /** Loopback allowed (sandbox servers: the demo, tests). */
  sandbox: boolean;
  /** The operator allowed a node on a private network or this host (their own geth/erigon). */
  allowPrivate: boolean;
  resolve: Resolver;
}

/** Kinds an RPC connection may reach: public; loopback on a sandbox; loopback, private and CGNAT when the operator allows it. Never metadata, link-local, multicast or reserved. */
export function rpcAddressAllowed(kind: AddressKind, guard: Pick<RpcGuard, 'sandbox' | 'allowPrivate'>): boolean {
  if (kind === 'public') return true;
  if (kind === 'loopback') return guard.sandbox || guard.allowPrivate;
  return guard.allowPrivate && (kind === 'private' || kind === 'cgnat');
}

const describe = (kind: AddressKind) =>
  kind === 'loopback' || kind === 'private' || kind === 'cgnat'
    ? `a ${kind} address (allowed with allowPrivateRpc: true)`
    : `a ${kind} address`;

export const checkedRpcAddresses = (host: string, guard: RpcGuard): Promise<LookupAddress[]> =>
  checkAddresses(host, guard.resolve, { allowed: (kind) => rpcAddressAllowed(kind, guard), describe });

/** Who a chain's sealed RPC URL belongs to (the secret box binds a sealed value to its owner). */
export const rpcOwner = (chainId: string) => `evm_watch:${chainId}`;
/** Who a watch's sealed API key belongs to. */
export const apiKeyOwner = (chainId: string) => `chain_watch_key:${chainId}`;

const SECRETISH = /^[A-Za-z0-9_-]{16,}$/;

/** The URL with user info, query values and key-like path segments masked. */
export function maskRpcUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(not a URL)';
  }
  const path = url.pathname
    .split('/')
    .map((seg) => (SECRETISH.test(seg) ? '***' : seg))
    .join('/');
  const query = [...url.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=***`).join('&');
  const auth = url.username !== '' || url.password !== '' ? '***@' : '';
  return `${url.protocol}//${auth}${url.host}${path}${query ? `?${query}` : ''}`;
}

/** A message with the URL and every key-like part of it masked (viem errors quote the URL). */
export function scrubMessage(message: string, rpcUrl: string): string {
  const masked = maskRpcUrl(rpcUrl);
  let out = message;
  const whole = new Set<string>([rpcUrl]);
  const parts = new Set<string>();
  try {
    const url = new URL(rpcUrl);
    whole.add(url.href);
    if (url.username) parts.add(url.username);
    if (url.password) parts.add(url.password);
    for (const seg of url.pathname.split('/')) if (SECRETISH.test(seg)) parts.add(seg);
    for (const v of url.searchParams.values()) if (v.length >= 4) parts.add(v);
  } catch {
    // not a URL: the text itself is all there is to mask
  }
  for (const w of [...whole].sort((a, b) => b.length - a.length)) out = out.split(w).join(masked);
  for (const p of [...parts].sort((a, b) => b.length - a.length)) out = out.split(p).join('***');
  return out.slice(0, 500);
}

/** Parses and checks an RPC URL as the watch routes do: 400 INVALID_URL with the reason. */
export async function checkRpcUrl(text: string, guard: RpcGuard): Promise<URL> {
  const invalid = (reason: string): never => {
    throw new HostpayError('INVALID_URL', `rpcUrl ${reason}`, { field: 'rpcUrl' });
  };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('is not an absolute URL, e.g. https://mainnet.infura.io/v3/KEY or ws://127.0.0.1:8546');
  }
  if (!['https:', 'http:', 'wss:', 'ws:'].includes(url.protocol)) invalid('must use https, http, wss or ws');
  if (url.hash !== '') invalid('must not have a #fragment');
  const host = bareHost(url);
  if (host === '') invalid('has no host');
  try {
    await checkedRpcAddresses(host, guard);
  } catch (err) {
    if (err instanceof RefusedAddress) invalid(`is refused: ${err.reason}`);
    throw err;
  }
  return url;
}

/**
 * A `fetch` for viem's http transport whose every connection goes through the RPC address check
 * (outbound/fetch.ts). Answers are capped: a block with its transactions is a few MB.
 */
export const rpcFetch = (guard: RpcGuard) =>
  guardedFetch({
    check: (host) => checkedRpcAddresses(host, guard),
    maxSockets: 8,
    maxAnswerBytes: 64 * 1024 * 1024,
    what: 'RPC answer',
  });
