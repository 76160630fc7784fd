import { HostpayError } from '../../errors.js';
import { addressKind } from '../../outbound/addresses.js';
import { guardedFetch } from '../../outbound/fetch.js';
import { bareHost, checkedAddresses, RefusedAddress, type GuardOptions } from '../../outbound/guard.js';
import { maskWebhookUrl } from '../../outbound/mask-url.js';

/**
 * A rate source's base URL is checked like a webhook URL (public addresses; loopback only on a
 * sandbox server; plain http only to loopback there), when it is set and again on every
 * connection. A self-hosted proxy may carry a key in its path or query, so the URL is sealed at
 * rest and shown masked; errors name the masked URL only.
 */
export async function checkSourceUrl(text: string, guard: GuardOptions): Promise<URL> {
  const invalid = (reason: string): never => {
    throw new HostpayError('INVALID_URL', `baseUrl ${reason}`, { field: 'baseUrl' });
  };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid("is not an absolute URL, e.g. https://api.coinbase.com or your proxy's address");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') invalid('must use https');
  if (url.username !== '' || url.password !== '') invalid('must not carry user:password@');
  if (url.hash !== '' || url.search !== '') invalid('must not have a ?query or #fragment (the adapter adds its own)');
  const host = bareHost(url);
  if (host === '') invalid('has no host');
  let addresses: Awaited<ReturnType<typeof checkedAddresses>> = [];
  try {
    addresses = await checkedAddresses(host, guard);
  } catch (err) {
    if (err instanceof RefusedAddress) invalid(`is refused: ${err.reason}`);
    throw err;
  }
  if (url.protocol === 'http:' && !(guard.sandbox && addresses.every((a) => addressKind(a.address) === 'loopback')))
    invalid(guard.sandbox ? 'must use https (http only to localhost on a sandbox server)' : 'must use https');
  return url;
}

export const sourceOwner = (id: string) => `rate_source:${id}`;
export const maskSourceUrl = maskWebhookUrl;

/** A message with the source's URL (and its key-like parts) replaced by the masked URL. */
export function scrub(message: string, url: string): string {
  const masked = maskSourceUrl(url);
  let out = message.split(url).join(masked);
  try {
    const u = new URL(url);
    for (const seg of u.pathname.split('/')) if (seg.length >= 16) out = out.split(seg).join('***');
  } catch {
    // not a URL: nothing more to mask
  }
  return out.slice(0, 500);
}

/** What an operator reads for the usual network failures (the code alone, `ECONNREFUSED`, says little to most). */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed (try again)',
  EPIPE: 'connection closed while sending',
};

/**
 * A failed request's message for the source's health: the reason and its code. A fetch-style
 * error only says "fetch failed" and keeps the code on its `cause`, so that is looked at too.
 */
export function connectionError(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  const code =
    (err as NodeJS.ErrnoException).code ?? (cause instanceof Error ? (cause as NodeJS.ErrnoException).code : undefined);
  if (code === undefined) return err.message === '' ? err.name : err.message;
  const reason = NETWORK_ERRORS[code];
  if (reason !== undefined) return `${reason} (${code})`;
  const text = (cause instanceof Error && cause.message) || err.message || 'request failed';
  return text.includes(code) ? text : `${text} (${code})`;
}

export interface SourceFetchOptions extends GuardOptions {
  timeoutMs: number;
  maxAnswerBytes: number;
}

/**
 * GET through the outbound guard (every connection's address checked), with a deadline and a
 * size cap; the answer's text, or an error naming the status.
 */
export function sourceFetcher(opts: SourceFetchOptions) {
  const guarded = guardedFetch({
    check: (host) => checkedAddresses(host, opts),
    maxSockets: 4,
    maxAnswerBytes: opts.maxAnswerBytes,
    what: 'rate source answer',
  });
  async function get(url: string): Promise<string> {
    let res: Response;
    try {
      res = await guarded.fetchFn(url, {
        method: 'GET',
        headers: { accept: 'application/json, application/xml;q=0.9' },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new Error(`no answer within ${opts.timeoutMs} ms`);
      if (err instanceof RefusedAddress) throw new Error(`address refused: ${err.reason}`);
      throw new Error(connectionError(e));
    }
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return res.text();
  }
  return { get, close: () => guarded.close() };
}
