import { exactRate, isRecord, MalformedAnswer, pairKey, parseJson, type Pair, type RateProvider } from './provider.js';

/** Kraken's own names for some assets (https://docs.kraken.com/api/docs/rest-api/get-ticker-information). */
const KRAKEN_NAME: Record<string, string> = { BTC: 'XBT', DOGE: 'XDG' };
const FIAT = new Set(['EUR', 'USD', 'GBP', 'CAD', 'JPY', 'CHF', 'AUD']);
const name = (s: string) => KRAKEN_NAME[s] ?? s;
/** The result keys Kraken may answer a pair under: `XBTEUR`, or the legacy `XXBTZEUR` / `XETHXXBT`. */
const keysOf = (p: Pair) => {
  const b = name(p.base);
  const q = name(p.quote);
  const legacy = (s: string, original: string) => (FIAT.has(original) ? `Z${s}` : `X${s}`);
  return [`${b}${q}`, `${legacy(b, p.base)}${legacy(q, p.quote)}`, `${b}/${q}`];
};

/**
 * Kraken's public ticker: `GET /0/public/Ticker?pair=XBTEUR,ETHEUR` answers
 * `{"error":[],"result":{"XXBTZEUR":{"a":[…],"b":[…],"c":["58123.40000","0.01"],…}}}`; the rate is
 * `c[0]`, the last trade's price, a string. One request for every pair.
 */
export const kraken: RateProvider = {
  kind: 'kraken',
  defaultBaseUrl: 'https://api.kraken.com',
  endpoint: '/0/public/Ticker?pair=XBTEUR,…',
  async fetch({ baseUrl, pairs, get }) {
    const asked = pairs.map((p) => `${name(p.base)}${name(p.quote)}`).join(',');
    const body = parseJson(await get(`${baseUrl}/0/public/Ticker?pair=${encodeURIComponent(asked)}`), 'kraken');
    if (!isRecord(body) || !Array.isArray(body.error) || !isRecord(body.result))
      throw new MalformedAnswer('kraken: the answer has no error list and result object');
    if (body.error.length > 0) throw new MalformedAnswer(`kraken: ${String(body.error[0]).slice(0, 200)}`);
    const result = body.result;
    const out = new Map<string, string>();
    for (const p of pairs) {
      const key = keysOf(p).find((k) => k in result);
      const ticker = key === undefined ? undefined : result[key];
      if (!isRecord(ticker) || !Array.isArray(ticker.c))
        throw new MalformedAnswer(`kraken: no ticker for ${pairKey(p)} in the answer`);
      out.set(pairKey(p), exactRate(ticker.c[0], `kraken ${pairKey(p)}`));
    }
    return out;
  },
};
