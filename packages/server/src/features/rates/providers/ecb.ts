import { Decimal } from '@hostpay/protocol';
import { exactRate, MalformedAnswer, pairKey, type RateProvider } from './provider.js';

const DAY_CUBE = /<Cube\s+time=(['"])(\d{4}-\d{2}-\d{2})\1\s*>/g;
const RATE_CUBE = /<Cube\s+currency=(['"])([A-Z]{3})\1\s+rate=(['"])([^'"]{1,40})\3\s*\/>/g;

/**
 * Reads the ECB's daily reference rates document — its documented shape only: a
 * `gesmes:Envelope` with one `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='USD' rate='1.0842'/>`
 * elements (1 EUR = rate currency). Anything else (two days, no day, a rate that is not decimal
 * text) is malformed. No XML library: the document is this small and fixed.
 */
export function parseEcbDaily(xml: string): { day: string; rates: Map<string, string> } {
  if (!/<gesmes:Envelope[\s>]/.test(xml)) throw new MalformedAnswer('ecb: the answer is not a gesmes:Envelope');
  const days = [...xml.matchAll(DAY_CUBE)];
  if (days.length !== 1) throw new MalformedAnswer(`ecb: expected one day of rates, found ${days.length}`);
  const rates = new Map<string, string>();
  for (const m of xml.matchAll(RATE_CUBE)) rates.set(m[2]!, exactRate(m[4], `ecb EUR/${m[2]}`));
  if (rates.size === 0) throw new MalformedAnswer('ecb: the day has no rates');
  return { day: days[0]![2]!, rates };
}

/**
 * The ECB's euro foreign exchange reference rates
 * (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html):
 * `GET /stats/eurofxref/eurofxref-daily.xml`, published once a working day. Fiat pairs only: EUR/X
 * as published, X/EUR its inverse, X/Y through the euro (rate Y / rate X), rounded at 18 digits.
 */
export const ecb: RateProvider = {
  kind: 'ecb',
  defaultBaseUrl: 'https://www.ecb.europa.eu',
  endpoint: '/stats/eurofxref/eurofxref-daily.xml',
  async fetch({ baseUrl, pairs, get }) {
    const { rates } = parseEcbDaily(await get(`${baseUrl}/stats/eurofxref/eurofxref-daily.xml`));
    const perEuro = (c: string) => {
      if (c === 'EUR') return new Decimal(1);
      const r = rates.get(c);
      if (r === undefined) throw new MalformedAnswer(`ecb: no reference rate for ${c}`);
      return new Decimal(r);
    };
    const out = new Map<string, string>();
    for (const p of pairs) {
      const rate = perEuro(p.quote).dividedBy(perEuro(p.base)).toDecimalPlaces(18, Decimal.ROUND_HALF_UP);
      out.set(pairKey(p), rate.toFixed());
    }
    return out;
  },
};
