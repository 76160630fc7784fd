import { ChainMoved, type WatchedAsset } from '../../adapter.js';
import { JsonNumber, parseJsonKeepingNumbers } from './amount.js';

/** A `fetch`: the guarded outbound fetch (outbound/fetch.ts) in the server, any fetch in tests. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface BitcoinAdapterOptions {
  /** Base URL: Esplora's API root (`https://blockstream.info/api`) or Bitcoin Core's RPC endpoint. */
  url: string;
  /**
   * Esplora: sent as `Authorization: Bearer <key>` (hosted Esplora plans). Bitcoin Core:
   * `user:password` for Basic auth. User info in the URL is used the same way. Never logged.
   */
  apiKey?: string | undefined;
  fetch: FetchLike;
  /** Per request; default 30 s. */
  timeoutMs?: number | undefined;
  /** Largest answer read, in bytes; default 32 MB (a full block with verbosity 2 is ~10 MB). */
  maxAnswerBytes?: number | undefined;
  /** Lets go of the fetch's sockets (the adapter's close()). */
  close?: (() => void) | undefined;
}

/** What a Bitcoin node or API answered that the adapter cannot use; the message says which call and why. */
export class BitcoinNodeError extends Error {
  override name = 'BitcoinNodeError';
}

export interface Endpoint {
  /** The URL of a path below the base (`/blocks/tip/height`), without user info, with the base's query kept. */
  at(path: string): string;
  authorization: string | undefined;
}

/** Splits credentials out of the URL so they travel only in a header and never in a message. */
export function endpoint(url: string, apiKey: string | undefined, scheme: 'Basic' | 'Bearer'): Endpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BitcoinNodeError('the node URL is not an absolute URL');
  }
  let userinfo: string | undefined;
  if (parsed.username !== '' || parsed.password !== '') {
    userinfo = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    parsed.username = '';
    parsed.password = '';
  }
  let authorization: string | undefined;
  if (apiKey !== undefined && apiKey !== '')
    authorization = scheme === 'Basic' ? `Basic ${Buffer.from(apiKey, 'utf8').toString('base64')}` : `Bearer ${apiKey}`;
  else if (userinfo !== undefined) authorization = `Basic ${Buffer.from(userinfo, 'utf8').toString('base64')}`;
  const root = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  // A provider's key may be a query parameter (`?apikey=`): it stays after every path.
  return { at: (path) => `${root}${path}${parsed.search}`, authorization };
}

/**
 * One request with a time limit and a size bound; answers the status and the body text. The
 * guarded fetch caps answers itself; the bound here holds for any fetch given.
 */
export async function request(
  fetchFn: FetchLike,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  limits: { timeoutMs: number; maxAnswerBytes: number },
  what: string,
): Promise<{ status: number; text: string }> {
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(limits.timeoutMs) });
  } catch (err) {
    const reason =
      err instanceof Error && err.name === 'TimeoutError' ? `no answer in ${limits.timeoutMs} ms` : errText(err);
    throw new BitcoinNodeError(`${what}: ${reason}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > limits.maxAnswerBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new BitcoinNodeError(`${what}: answer larger than ${limits.maxAnswerBytes} bytes`);
  }
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > limits.maxAnswerBytes)
    throw new BitcoinNodeError(`${what}: answer larger than ${limits.maxAnswerBytes} bytes`);
  return { status: res.status, text: buf.toString('utf8') };
}

const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 200);

/** JSON with numbers kept as their text (JsonNumber); a clear error if it is not JSON. */
export function parseAnswer(text: string, what: string): unknown {
  try {
    return parseJsonKeepingNumbers(text);
  } catch {
    throw new BitcoinNodeError(`${what}: answer is not JSON (${JSON.stringify(text.slice(0, 80))})`);
  }
}

/** Small readers that name the field a malformed answer got wrong. */
export const read = {
  object(v: unknown, what: string): Record<string, unknown> {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof JsonNumber)
      throw new BitcoinNodeError(`${what}: expected an object`);
    return v as Record<string, unknown>;
  },
  array(v: unknown, what: string, max: number): unknown[] {
    if (!Array.isArray(v)) throw new BitcoinNodeError(`${what}: expected an array`);
    if (v.length > max) throw new BitcoinNodeError(`${what}: more than ${max} entries`);
    return v;
  },
  hash(v: unknown, what: string): string {
    if (typeof v !== 'string' || !/^[0-9a-f]{64}$/i.test(v))
      throw new BitcoinNodeError(`${what}: expected a 64-digit hex hash, got ${describe(v)}`);
    return v.toLowerCase();
  },
  height(v: unknown, what: string): number {
    const n = v instanceof JsonNumber ? v.value : undefined;
    if (n === undefined || !Number.isSafeInteger(n) || n < 0 || !/^\d+$/.test((v as JsonNumber).text))
      throw new BitcoinNodeError(`${what}: expected a block height, got ${describe(v)}`);
    return n;
  },
  /** A non-negative integer (satoshis, indexes, counts). */
  uint(v: unknown, what: string, max: bigint): bigint {
    if (!(v instanceof JsonNumber) || !/^\d{1,16}$/.test(v.text) || BigInt(v.text) > max)
      throw new BitcoinNodeError(`${what}: expected a whole number up to ${max}, got ${describe(v)}`);
    return BigInt(v.text);
  },
};

function describe(v: unknown): string {
  if (v instanceof JsonNumber) return v.text.slice(0, 40);
  if (v === undefined) return 'nothing';
  return JSON.stringify(v)?.slice(0, 80) ?? String(v);
}

/** The one asset a Bitcoin watch can follow: the native coin, counted in satoshis. */
export function nativeAsset(assets: readonly WatchedAsset[]): WatchedAsset | undefined {
  const native = assets.find((a) => a.contract === null);
  if (native && native.decimals !== 8)
    throw new BitcoinNodeError(
      `${native.asset} is watched with ${native.decimals} decimals; Bitcoin amounts are satoshis (8 decimals)`,
    );
  return native;
}

export interface BlockOutputs {
  hash: string;
  height: number;
  previous: string | null;
}

/** Checks a block read for height `h` is the one asked for and follows the block before it in the range. */
export function checkLink(block: BlockOutputs, h: number, asked: string, before: string | undefined, what: string) {
  if (block.hash !== asked) throw new ChainMoved(`${what}: the node answered block ${block.hash} for ${asked}`);
  if (block.height !== h) throw new ChainMoved(`${what}: block ${asked} is at height ${block.height}, not ${h}`);
  if (before !== undefined && block.previous !== before)
    throw new ChainMoved(
      `the chain moved while blocks were read: block ${h} (${block.hash}) follows ${block.previous}, not ${before} (block ${h - 1})`,
    );
}

/** Checks a range before anything is asked. */
export function checkRange(from: number, to: number): void {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from)
    throw new BitcoinNodeError(`scan range ${from}..${to} is not a range of block heights`);
}

/** Blocks per scan: each is fetched whole (a page per 25 transactions, or a `getblock` of ~10 MB). */
export const SCAN_LIMIT = 10;
