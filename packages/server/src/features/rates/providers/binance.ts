import { exactRate, isRecord, MalformedAnswer, pairKey, parseJson, type RateProvider } from './provider.js';

/**
 * Binance's symbol price ticker (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints#symbol-price-ticker):
 * `GET /api/v3/ticker/price?symbols=["BTCEUR","ETHEUR"]` answers
 * `[{"symbol":"BTCEUR","price":"58123.45000000"},…]`, the price a string. Binance lists
 * stablecoin markets (BTCUSDT) rather than USD ones: a pair is its two symbols run together.
 */
export const binance: RateProvider = {
  kind: 'binance',
  defaultBaseUrl: 'https://api.binance.com',
  endpoint: '/api/v3/ticker/price?symbols=[…]',
  async fetch({ baseUrl, pairs, get }) {
    const symbols = JSON.stringify(pairs.map((p) => `${p.base}${p.quote}`));
    const body = parseJson(
      await get(`${baseUrl}/api/v3/ticker/price?symbols=${encodeURIComponent(symbols)}`),
      'binance',
    );
    const items = Array.isArray(body) ? body : [body];
    const prices = new Map<string, unknown>();
    for (const item of items)
      if (isRecord(item) && typeof item.symbol === 'string') prices.set(item.symbol, item.price);
    const out = new Map<string, string>();
    for (const p of pairs) {
      const symbol = `${p.base}${p.quote}`;
      if (!prices.has(symbol)) throw new MalformedAnswer(`binance: no price for ${symbol} in the answer`);
      out.set(pairKey(p), exactRate(prices.get(symbol), `binance ${symbol}`));
    }
    return out;
  },
};
