import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseEcbDaily } from '../../src/features/rates/providers/ecb.js';
import { errorOf, resultOf } from '../http-helpers/admin-fixture.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { ratesEnv, shapes, standIn, type RatesEnv } from './env.js';

/**
 * Each provider's documented answer shape, served by a stand-in on 127.0.0.1: the adapter asks the
 * documented endpoint, keeps the decimal text exactly, and writes the rate through the operator's
 * code path with its source and time. A malformed answer writes nothing.
 */
describe.each(DIALECTS)('rate providers on %s', (dialect: Dialect) => {
  let env: RatesEnv;
  beforeAll(async () => {
    env = await ratesEnv(dialect);
  });
  afterAll(() => env.close());
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    for (const id of ['cb', 'kr', 'bn', 'ecb']) await env.admin('DELETE', `/rate-sources/${id}`);
    for (const r of await env.rates()) await env.admin('DELETE', `/rates/${r[0]}`);
  });

  it('coinbase: /v2/exchange-rates?currency=BASE, data.rates[QUOTE] as text, every digit kept', async () => {
    const s = await standIn((u) => ({
      body: shapes.coinbase(u.searchParams.get('currency')!, {
        EUR: u.searchParams.get('currency') === 'BTC' ? '58123.123456789012345678' : '3100.5',
        USD: '1',
      }),
    }));
    servers.push(s);
    await env.source('cb', { kind: 'coinbase', baseUrl: s.url, pairs: ['BTC/EUR', 'ETH/EUR'] });
    const r = await env.services.rates.refresher.refresh('cb');
    expect(r).toMatchObject({ leader: true, ok: true, observed: 2 });
    expect(s.requests.map((u) => `${u.pathname}?${u.searchParams}`).sort()).toEqual([
      '/v2/exchange-rates?currency=BTC',
      '/v2/exchange-rates?currency=ETH',
    ]);
    const rates = await env.rates();
    // The raw body keeps the exact literal (a float would have lost the last digits).
    const raw = (await env.admin('GET', '/rates')).body;
    expect(raw).toContain('"rate":58123.123456789012345678');
    expect(rates.get('BTC/EUR')).toMatchObject({ source: 'cb', pinned: false, stale: false, maxAgeSeconds: 600 });
    expect(rates.get('ETH/EUR')!.rate).toBe(3100.5);
  });

  it('kraken: /0/public/Ticker?pair=XBTEUR,…, c[0] of the legacy result key', async () => {
    const s = await standIn(() => ({ body: shapes.kraken({ XXBTZEUR: '58000.10000', XETHZEUR: '3101.20' }) }));
    servers.push(s);
    await env.source('kr', { kind: 'kraken', baseUrl: s.url, pairs: ['BTC/EUR', 'ETH/EUR'] });
    expect(await env.services.rates.refresher.refresh('kr')).toMatchObject({ ok: true, observed: 2 });
    expect(s.requests[0]!.pathname).toBe('/0/public/Ticker');
    expect(s.requests[0]!.searchParams.get('pair')).toBe('XBTEUR,ETHEUR');
    const rates = await env.rates();
    expect(rates.get('BTC/EUR')!.rate).toBe(58000.1);
    expect(rates.get('ETH/EUR')!.source).toBe('kr');
  });

  it('kraken: an error list in the answer is a failed refresh', async () => {
    const s = await standIn(() => ({ body: JSON.stringify({ error: ['EQuery:Unknown asset pair'], result: {} }) }));
    servers.push(s);
    await env.source('kr', { kind: 'kraken', baseUrl: s.url, pairs: ['BTC/EUR'] });
    const r = await env.services.rates.refresher.refresh('kr');
    expect(r).toMatchObject({ leader: true, ok: false });
    expect((r as { error: string }).error).toContain('EQuery:Unknown asset pair');
    expect((await env.rates()).size).toBe(0);
  });

  it('binance: /api/v3/ticker/price?symbols=[…], price as text', async () => {
    const s = await standIn(() => ({ body: shapes.binance({ BTCUSDT: '63000.01000000', ETHUSDT: '3370.00000000' }) }));
    servers.push(s);
    await env.source('bn', { kind: 'binance', baseUrl: s.url, pairs: ['BTC/USDT', 'ETH/USDT'] });
    expect(await env.services.rates.refresher.refresh('bn')).toMatchObject({ ok: true, observed: 2 });
    expect(s.requests[0]!.pathname).toBe('/api/v3/ticker/price');
    expect(JSON.parse(s.requests[0]!.searchParams.get('symbols')!)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const rates = await env.rates();
    expect(rates.get('BTC/USDT')!.rate).toBe(63000.01);
    expect(rates.get('ETH/USDT')!.rate).toBe(3370);
  });

  it('ecb: the daily XML, EUR/X as published and X/EUR its inverse', async () => {
    const s = await standIn(() => ({
      type: 'text/xml',
      body: shapes.ecb('2026-11-25', { USD: '1.0842', JPY: '162.35' }),
    }));
    servers.push(s);
    await env.source('ecb', { kind: 'ecb', baseUrl: s.url, pairs: ['EUR/USD', 'USD/EUR'] });
    expect(await env.services.rates.refresher.refresh('ecb')).toMatchObject({ ok: true, observed: 2 });
    expect(s.requests[0]!.pathname).toBe('/stats/eurofxref/eurofxref-daily.xml');
    const raw = (await env.admin('GET', '/rates')).body;
    expect(raw).toContain('"rate":1.0842');
    // 1 / 1.0842 at 18 fractional digits, computed in decimal.
    expect(raw).toContain('"rate":0.922339051835454713');
    const view = resultOf(await env.admin('GET', '/rate-sources/ecb'));
    expect(view).toMatchObject({ refreshSeconds: 3600, maxAgeSeconds: 345600, health: { state: 'up' } });
  });

  it.each([
    ['a number instead of decimal text', () => JSON.stringify({ data: { currency: 'BTC', rates: { EUR: 58000.5 } } })],
    ['not JSON', () => '<html>maintenance</html>'],
    ['the pair missing', () => shapes.coinbase('BTC', { USD: '63000' })],
    ['a rate of zero', () => shapes.coinbase('BTC', { EUR: '0' })],
    ['an exponent', () => shapes.coinbase('BTC', { EUR: '5.8e4' })],
  ])('a malformed answer (%s) writes nothing and shows as the last error', async (_what, body) => {
    const s = await standIn(() => ({ body: body() }));
    servers.push(s);
    await env.source('cb', { kind: 'coinbase', baseUrl: s.url, pairs: ['BTC/EUR'] });
    const r = await env.services.rates.refresher.refresh('cb');
    expect(r).toMatchObject({ leader: true, ok: false });
    expect((await env.rates()).has('BTC/EUR')).toBe(false);
    const view = resultOf(await env.admin('GET', '/rate-sources/cb'));
    expect(view.health.state).toBe('down');
    expect(view.health.lastError).toBe((r as { error: string }).error);
  });

  it('the ECB document is read strictly: two days, no envelope, a bad rate are refused', () => {
    expect(parseEcbDaily(shapes.ecb('2026-11-25', { USD: '1.0842' })).rates.get('USD')).toBe('1.0842');
    expect(() => parseEcbDaily('<Cube><Cube time="2026-11-25"></Cube></Cube>')).toThrow(/gesmes:Envelope/);
    const two = shapes
      .ecb('2026-11-25', { USD: '1.0842' })
      .replace("<Cube time='2026-11-25'>", "<Cube time='2026-11-24'></Cube><Cube time='2026-11-25'>");
    expect(() => parseEcbDaily(two)).toThrow(/one day/);
    expect(() => parseEcbDaily(shapes.ecb('2026-11-25', { USD: '1,0842' }))).toThrow(/decimal/);
  });

  it('a base URL on a private address is refused at configuration (400 INVALID_URL)', async () => {
    const res = await env.admin('PUT', '/rate-sources/cb', {
      body: { kind: 'coinbase', baseUrl: 'https://10.1.2.3', pairs: ['BTC/EUR'] },
    });
    expect(errorOf(res, 400, 'INVALID_URL').message).toMatch(/private/);
  });
});
