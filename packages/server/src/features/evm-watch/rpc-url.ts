import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HostpayError } from '../../errors.js';
import { addressKind, type AddressKind } from '../../outbound/addresses.js';
import { bareHost, checkAddresses, lookupThrough, RefusedAddress, type Resolver } from '../../outbound/guard.js';

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

const rpcLookup = (guard: RpcGuard) => lookupThrough((host) => checkedRpcAddresses(host, guard));

const MAX_ANSWER = 64 * 1024 * 1024;

/**
 * A `fetch` for viem's http transport whose every connection goes through the guard: the
 * agents' DNS lookup checks what a name resolves to when connecting (DNS rebinding included), and
 * an IP literal is checked before the request. Answers are capped (a block with its transactions
 * is a few MB).
 */
export function guardedFetch(guard: RpcGuard) {
  const common = { keepAlive: true, maxSockets: 8, lookup: rpcLookup(guard) as never };
  const agents = { http: new HttpAgent(common), https: new HttpsAgent(common) };
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bareHost(url);
    if (addressKind(host) !== undefined) await checkedRpcAddresses(host, guard);
    const body = typeof init?.body === 'string' ? Buffer.from(init.body, 'utf8') : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    headers['content-length'] = String(body.length);
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = request(url, {
        method: init?.method ?? 'POST',
        headers,
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        ...(signal ? { signal } : {}),
      });
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER) res.destroy(new Error('RPC answer larger than 64 MB'));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: h }));
        });
      });
      req.end(body);
    });
  };
  const close = () => {
    agents.http.destroy();
    agents.https.destroy();
  };
  return { fetchFn, close };
}
