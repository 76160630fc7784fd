/** The fetch the generic part hands every adapter: connections through the outbound address guard. */
export type AdapterFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface TronClientOptions {
  /** The node's HTTP API (java-tron FullNode :8090, or https://api.trongrid.io). */
  url: string;
  /** TronGrid's key, sent as the TRON-PRO-API-KEY header; never part of a message. */
  apiKey?: string | undefined;
  fetch: AdapterFetch;
  /** Per request; default 20 s. */
  timeoutMs?: number;
  /** Answers past this many bytes are refused; default 16 MB (a full mainnet block is ~1 MB). */
  maxAnswerBytes?: number;
}

/** A node's answer that is not what java-tron answers: a clear error for the watcher's health, never a crash. */
export class TronNodeError extends Error {
  override readonly name = 'TronNodeError';
  constructor(
    message: string,
    /** The HTTP status, when the node answered with an error status. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * `amount` (sun) may exceed 2^53: it is read from the answer's source text as a bigint, never
 * through a double. Every other number is a height, a time or a fee.
 */
function exactAmounts(this: unknown, key: string, value: unknown, context?: { source?: string }): unknown {
  if (key === 'amount' && typeof value === 'number' && context?.source !== undefined) {
    if (!/^-?\d+$/.test(context.source))
      throw new TronNodeError(`amount is not an integer: ${context.source.slice(0, 40)}`);
    return BigInt(context.source);
  }
  return value;
}

export interface TronClient {
  post(path: string, body: Record<string, unknown>): Promise<unknown>;
}

/** POSTs JSON to one node; answers bounded, parsed exactly, java-tron's `{"Error": …}` turned into an error. */
export function tronClient(opts: TronClientOptions): TronClient {
  const base = opts.url.endsWith('/') ? opts.url : `${opts.url}/`;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const maxBytes = opts.maxAnswerBytes ?? 16 * 1024 * 1024;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.apiKey) headers['TRON-PRO-API-KEY'] = opts.apiKey;
  return {
    async post(path, body) {
      const url = new URL(path.replace(/^\//, ''), base);
      // The path alone names the call in messages: the base URL may carry a secret.
      const what = `TRON node ${path}${Object.keys(body).length > 0 ? ` ${JSON.stringify(body)}` : ''}`;
      let res: Response;
      try {
        res = await opts.fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new TronNodeError(`${what}: ${reason}`);
      }
      const declared = Number(res.headers.get('content-length') ?? '0');
      if (declared > maxBytes) throw new TronNodeError(`${what}: answer larger than ${maxBytes} bytes`);
      const text = await res.text();
      if (Buffer.byteLength(text, 'utf8') > maxBytes)
        throw new TronNodeError(`${what}: answer larger than ${maxBytes} bytes`);
      if (res.status === 401 || res.status === 403)
        throw new TronNodeError(`${what}: HTTP ${res.status} (API key missing, wrong or out of quota?)`);
      if (res.status === 429)
        throw new TronNodeError(`${what}: HTTP 429 (rate limited: use an API key or slow the polling)`);
      if (res.status < 200 || res.status > 299) throw new TronNodeError(`${what}: HTTP ${res.status}`, res.status);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text, exactAmounts as (key: string, value: unknown) => unknown);
      } catch (err) {
        if (err instanceof TronNodeError) throw new TronNodeError(`${what}: ${err.message}`);
        throw new TronNodeError(`${what}: answer is not JSON (${text.slice(0, 60).replace(/\s+/g, ' ')})`);
      }
      // java-tron answers a failed call with HTTP 200 and {"Error": "class …Exception : …"}.
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && 'Error' in parsed) {
        const msg = String((parsed as { Error: unknown }).Error).slice(0, 200);
        throw new TronNodeError(`${what}: node error: ${msg}`);
      }
      return parsed;
    },
  };
}
