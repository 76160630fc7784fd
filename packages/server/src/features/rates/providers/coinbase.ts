import { exactRate, isRecord, MalformedAnswer, pairKey, parseJson, type RateProvider } from './provider.js';

/**
 * Coinbase's public exchange rates (https://docs.cdp.coinbase.com/coinbase-app/docs/api-exchange-rates):
 * `GET /v2/exchange-rates?currency=BTC` answers `{"data":{"currency":"BTC","rates":{"EUR":"58123.45",…}}}`,
 * 1 BTC = rates.EUR EUR, every rate a string. One request per base currency.
 */
export const coinbase: RateProvider = {
  kind: 'coinbase',
  defaultBaseUrl: 'https://api.coinbase.com',
  endpoint: '/v2/exchange-rates?currency=BASE',
  async fetch({ baseUrl, pairs, get }) {
    const out = new Map<string, string>();
    for (const base of new Set(pairs.map((p) => p.base))) {
      const body = parseJson(
        await get(`${baseUrl}/v2/exchange-rates?currency=${encodeURIComponent(base)}`),
        'coinbase',
      );
      const data = isRecord(body) ? body.data : undefined;
      if (!isRecord(data) || !isRecord(data.rates) || data.currency !== base)
        throw new MalformedAnswer(`coinbase: the answer for ${base} has no data.rates of ${base}`);
      for (const p of pairs.filter((x) => x.base === base)) {
        if (!(p.quote in data.rates)) throw new MalformedAnswer(`coinbase: no ${p.quote} rate for ${base}`);
        out.set(pairKey(p), exactRate(data.rates[p.quote], `coinbase ${pairKey(p)}`));
      }
    }
    return out;
  },
};
