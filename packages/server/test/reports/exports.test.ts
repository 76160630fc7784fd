import { parseExactJson, REPORT_COLUMNS, REPORT_KINDS, SCOPES, type ReportKind } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { csvChunk } from '../../src/features/reports/format.js';
import { reportStream } from '../../src/features/reports/stream.js';
import { DIALECTS } from '../helpers.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';
import { get, parseCsv, reportsEnv } from './env.js';

/**
 * GET /api/v1/cp/reports/{kind} on both stores: the published columns, RFC 4180 CSV with
 * formula cells neutralised, NDJSON with exact numbers, the range rules, the scopes, one
 * merchant's rows only, and streaming a page at a time (pages read on demand, a stream that is
 * abandoned stops reading, at most two at once per merchant).
 */
const DAY = 86_400_000;
const NASTY = ['=HYPERLINK("http://x","y")', '+1+2', '-3', '@SUM(A1)', '\tlead', '\rcr', 'a,"b"\r\nc'];

describe.each(DIALECTS)('report exports on %s', (dialect) => {
  let fx: HttpFixture;
  let key: TestKey;
  let close: () => Promise<void>;
  let range: string;

  beforeAll(async () => {
    ({ fx, key, close } = await reportsEnv(dialect));
    for (const orderId of NASTY)
      await fx.services.checkouts.create(fx.demo.merchantId, {
        amount: '10',
        currency: 'EUR',
        orderId,
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        expiresIn: 3600,
      });
    const now = fx.now();
    range = `from=${new Date(now - DAY).toISOString()}&to=${new Date(now + DAY).toISOString()}`;
  }, 60_000);
  afterAll(() => close());

  const report = (kind: string, query: string, k = key) => get(fx, k, `/api/v1/cp/reports/${kind}?${query}`);

  it('every kind downloads as CSV with its published header row, CRLF records and an attachment name', async () => {
    for (const kind of REPORT_KINDS) {
      const res = await report(kind, range);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="hostpay-${kind}-\\d{8}T\\d{6}Z-\\d{8}T\\d{6}Z\\.csv"$`),
      );
      const records = parseCsv(res.body);
      expect(records[0]).toEqual([...REPORT_COLUMNS[kind]]);
      for (const r of records) expect(r).toHaveLength(REPORT_COLUMNS[kind].length);
    }
  });

  it('the rows are the merchant’s own, exact and oldest first', async () => {
    const ledger = parseCsv((await report('ledger', range)).body).slice(1);
    const wallets = await fx.services.store.db
      .selectFrom('wallets')
      .select('id')
      .where('merchant_id', '=', fx.demo.merchantId)
      .execute();
    const postings = await fx.services.store.db
      .selectFrom('ledger_postings')
      .select(['id', 'amount_after'])
      .where(
        'wallet_id',
        'in',
        wallets.map((w) => w.id),
      )
      .execute();
    expect(ledger.map((r) => r[0]).sort()).toEqual(postings.map((p) => p.id).sort());
    const times = ledger.map((r) => `${r[1]}|${r[0]}`);
    expect(times).toEqual([...times].sort());
    const settled = parseCsv((await report('checkouts', range)).body)
      .slice(1)
      .filter((r) => r[2] === 'settled');
    expect(settled.map((r) => [r[4], r[10], r[11], r[14], r[15]])).toEqual([
      ['demo-settled-1', 'USDT', 'TRON', '0.677625', '26.427375'],
      ['demo-settled-2', 'USDT', 'TRON', '1.748273', '68.182627'],
    ]);
    const fees = parseCsv((await report('fees', range)).body).slice(1);
    expect(fees.map((r) => r[9])).toEqual(['0.677625', '1.748273']);
    // Another merchant sees none of it.
    const other = await fx.createKey(await fx.createMerchant('Other'), { scopes: [...SCOPES] });
    for (const kind of REPORT_KINDS) expect(parseCsv((await report(kind, range, other)).body)).toHaveLength(1);
  });

  it('text cells a spreadsheet would run are neutralised with a quote and quoted as RFC 4180 needs', async () => {
    const res = await report('checkouts', range);
    const orderIds = parseCsv(res.body)
      .slice(1)
      .map((r) => r[4]);
    for (const nasty of NASTY) {
      const expected = /^[=+\-@\t\r]/.test(nasty) ? `'${nasty}` : nasty;
      expect(orderIds).toContain(expected);
    }
    expect(res.body).toContain('"a,""b""\r\nc"');
    // Amounts and times are never prefixed.
    for (const r of parseCsv(res.body).slice(1)) {
      expect(r[1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(r[8]).toMatch(/^\d/);
    }
  });

  it('NDJSON: one object per line in column order, decimals exact, text as it is', async () => {
    const res = await report('checkouts', `${range}&format=ndjson`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['content-disposition']).toMatch(/\.ndjson"$/);
    const lines = res.body.split('\n');
    expect(lines.pop()).toBe('');
    const rows = lines.map((l) => parseExactJson(l) as Record<string, unknown>);
    expect(Object.keys(rows[0]!)).toEqual([...REPORT_COLUMNS.checkouts]);
    expect(rows.map((r) => r.orderId)).toEqual(expect.arrayContaining(NASTY));
    expect(lines.find((l) => l.includes('demo-settled-1'))).toContain('"net":26.427375');
  });

  it('a link or invoice checkout carries its paymentLinkId, invoiceId and customerEmail', async () => {
    const made = await fx.services.checkouts.createFrom(
      fx.demo.merchantId,
      {
        amount: '10',
        currency: 'EUR',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        customerEmail: 'payer@example.com',
      },
      { origin: { paymentLinkId: 'plink_report', invoiceId: 'inv_report' } },
    );
    const res = await report('checkouts', `${range}&format=ndjson`);
    const row = res.body
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => parseExactJson(l) as Record<string, unknown>)
      .find((r) => r.id === made.id);
    expect(row).toMatchObject({
      paymentLinkId: 'plink_report',
      invoiceId: 'inv_report',
      customerEmail: 'payer@example.com',
    });
  });

  it('range and format mistakes are 400 INVALID_QUERY envelopes', async () => {
    const now = fx.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const query of [
      `to=${iso(now)}`,
      `from=${iso(now)}`,
      `from=${iso(now)}&to=${iso(now)}`,
      `from=${iso(now)}&to=${iso(now - 1000)}`,
      `from=${iso(now - 367 * DAY)}&to=${iso(now)}`,
      `from=2027-01-01&to=2027-02-01T00:00:00Z`,
      `${range}&format=xml`,
    ]) {
      const res = await report('ledger', query);
      expect(res.statusCode, query).toBe(400);
      expect(JSON.parse(res.body).error.code).toBe('INVALID_QUERY');
    }
    expect((await report('ledger', `from=${iso(now - 366 * DAY)}&to=${iso(now)}`)).statusCode).toBe(200);
    expect((await report('invoices', range)).statusCode).toBe(400);
  });

  it('needs reports:read, and payouts:read for payouts', async () => {
    const noReports = await fx.createKey(fx.demo.merchantId, { scopes: ['checkout:read', 'payouts:read'] });
    const res = await report('ledger', range, noReports);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('SCOPE_MISSING');
    const noPayouts = await fx.createKey(fx.demo.merchantId, { scopes: ['reports:read', 'checkout:read'] });
    expect((await report('checkouts', range, noPayouts)).statusCode).toBe(200);
    const refused = await report('payouts', range, noPayouts);
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body).error.details.requiredScope).toBe('payouts:read');
    const created = await fx.services.admin.createApiKey(fx.demo.merchantId, {}, { operator: 'test' });
    expect(created.scopes).toContain('reports:read');
  });

  it('pages of any size give the same file; pages are read only as the reader asks', async () => {
    const now = fx.now();
    const r = { from: new Date(now - DAY).toISOString(), to: new Date(now + DAY).toISOString() };
    const read = async (kind: ReportKind, pageRows: number) => {
      let pages = 0;
      const stream = await reportStream(
        fx.services.store,
        { merchantId: fx.demo.merchantId, kind, format: 'csv', range: r, pageRows, onPage: () => pages++ },
        () => undefined,
      );
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return { text, pages };
    };
    for (const kind of REPORT_KINDS) {
      const whole = await read(kind, 1000);
      const paged = await read(kind, 2);
      expect(paged.text, kind).toBe(whole.text);
      expect(paged.pages).toBeGreaterThanOrEqual(Math.ceil((parseCsv(whole.text).length - 1) / 2));
    }
    // An abandoned download stops reading: one chunk asked for, then the stream destroyed.
    let pages = 0;
    let released = 0;
    const stream = await reportStream(
      fx.services.store,
      {
        merchantId: fx.demo.merchantId,
        kind: 'checkouts',
        format: 'csv',
        range: r,
        pageRows: 1,
        onPage: () => pages++,
      },
      () => released++,
    );
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    const total = parseCsv((await read('checkouts', 1000)).text).length - 1;
    expect(total).toBeGreaterThan(6);
    expect(pages).toBeLessThan(total / 2);
    expect(released).toBe(1);
  });

  it('the ledger read through the store’s array path is the file the query builder reads', async () => {
    const now = fx.now();
    const r = { from: new Date(now - DAY).toISOString(), to: new Date(now + DAY).toISOString() };
    const { store } = fx.services;
    expect(typeof store.arrayRows).toBe('function');
    const text = async (s: Parameters<typeof reportStream>[0], format: 'csv' | 'ndjson') => {
      const stream = await reportStream(
        s,
        { merchantId: fx.demo.merchantId, kind: 'ledger', format, range: r, pageRows: 3 },
        () => undefined,
      );
      let out = '';
      for await (const chunk of stream) out += String(chunk);
      return out;
    };
    for (const format of ['csv', 'ndjson'] as const) {
      const arrays = await text(store, format);
      expect(arrays.split('\n').length).toBeGreaterThan(4);
      expect(arrays).toBe(await text({ db: store.db, dialect: store.dialect }, format));
    }
  });

  it('at most two downloads per merchant at once: the third is 429, a finished one frees its slot', async () => {
    const now = fx.now();
    const q = { from: new Date(now - DAY).toISOString(), to: new Date(now).toISOString() };
    const { reports } = fx.services;
    const a = await reports.download(fx.demo.merchantId, 'ledger', q, now);
    const b = await reports.download(fx.demo.merchantId, 'ledger', q, now);
    const res = await report('ledger', range);
    expect(res.statusCode).toBe(429);
    expect(JSON.parse(res.body).error.code).toBe('RATE_LIMITED');
    a.stream.destroy();
    await new Promise((resolve) => a.stream.once('close', resolve));
    expect((await report('ledger', range)).statusCode).toBe(200);
    b.stream.destroy();
    await new Promise((resolve) => b.stream.once('close', resolve));
    expect(reports.openStreams(fx.demo.merchantId)).toBe(0);
  });
});

describe('CSV encoding', () => {
  it('a record without cells to quote is byte for byte what csv-stringify writes; the others are csv-stringify’s', () => {
    const rows = [
      { postingId: 'pst_1', postedAt: '2027-01-01T00:00:00.000Z', kind: 'credit', amount: '1.5', checkoutId: null },
      { postingId: 'pst_2', postedAt: '2027-01-01T00:00:00.001Z', kind: 'debit', amount: '2', payoutId: 'a,"b"\nc' },
      { postingId: '=1+1', postedAt: '2027-01-01T00:00:00.002Z', kind: 'credit', amount: '3', payoutId: '@x' },
    ];
    const cells = (r: Record<string, unknown>) =>
      REPORT_COLUMNS.ledger.map((c) => {
        const v = r[c] ?? '';
        return typeof v === 'string' && /^[=+\-@\t\r]/.test(v) && c !== 'amount' && c !== 'postedAt'
          ? `'${v}`
          : String(v);
      });
    const expected = stringify([[...REPORT_COLUMNS.ledger], ...rows.map(cells)], {
      record_delimiter: '\r\n',
      eof: true,
    });
    expect(csvChunk('ledger', rows, true)).toBe(expected);
  });
});
