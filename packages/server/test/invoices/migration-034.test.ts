import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { nextNumber } from '../../src/features/invoices/queries.js';
import { migrate } from '../../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { describeStores, TEST_DATABASE_URL } from '../helpers.js';

/**
 * Migration 034 over a store as release 33 left it: one counter per merchant, numbers under
 * whatever prefix each finalize found. Counters are rebuilt per prefix from the numbers given,
 * and (merchant, number) is what stays unique.
 */
describeStores('migration 034', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-mig34-'));
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  let store: Store;
  afterAll(async () => {
    await store?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts per prefix from the numbers already given; a new prefix starts at 1; a number stays unique', async () => {
    store =
      dialect === 'sqlite'
        ? openSqliteStore(join(dataDir, 'hostpay.db'))
        : await openPostgresStore(TEST_DATABASE_URL, { schema });
    await migrate(store, { upTo: 33 });
    const at = '2027-01-01T00:00:00.000Z';
    const db = store.db;
    for (const id of ['mer_a', 'mer_b'])
      await db
        .insertInto('merchants')
        .values({
          id,
          name: id,
          status: 'active',
          underpayment_tolerance_percent: '0',
          payout_cooling_off_hours: 24,
          payout_auto_approve_limit: '0',
          payout_daily_limit: '{}',
          created_at: at,
          updated_at: at,
          rate_spread_percent: null,
        } as never)
        .execute();
    const invoice = (id: string, merchant: string, seq: number | null, number: string | null) => ({
      id,
      merchant_id: merchant,
      status: number === null ? 'draft' : 'open',
      number,
      seq,
      currency: 'EUR',
      line_items: '[]',
      subtotal: '1',
      tax: '0',
      total: '1',
      amount_paid: '0',
      metadata: '{}',
      created_at: at,
      updated_at: at,
    });
    await db
      .insertInto('invoices')
      .values([
        // mer_a numbered INV 1..2, then switched to the prefix A-B (a dash in it) for 3, and
        // reached seven digits under INV.
        invoice('inv_1', 'mer_a', 1, 'INV-000001'),
        invoice('inv_2', 'mer_a', 2, 'INV-000002'),
        invoice('inv_3', 'mer_a', 3, 'A-B-000003'),
        invoice('inv_4', 'mer_b', 1234567, 'INV-1234567'),
        invoice('inv_5', 'mer_b', null, null),
      ] as never)
      .execute();

    expect(await migrate(store)).toMatchObject({ applied: expect.arrayContaining([34]) });

    const counters = await db
      .selectFrom('invoice_number_counters')
      .select(['merchant_id', 'prefix', 'last_number'])
      .orderBy('merchant_id')
      .orderBy('prefix')
      .execute();
    expect(counters.map((c) => [c.merchant_id, c.prefix, Number(c.last_number)])).toEqual([
      ['mer_a', 'A-B', 3],
      ['mer_a', 'INV', 2],
      ['mer_b', 'INV', 1234567],
    ]);
    const next = (merchant: string, prefix: string) =>
      store.writeTransaction((trx) => nextNumber(trx, merchant, prefix));
    expect(await next('mer_a', 'INV')).toBe(3);
    expect(await next('mer_a', 'ACME')).toBe(1);
    expect(await next('mer_a', 'A-B')).toBe(4);
    expect(await next('mer_b', 'INV')).toBe(1234568);
    // Two invoices of one merchant may share a seq now (INV-000003, A-B-000003), never a number.
    await db
      .insertInto('invoices')
      .values(invoice('inv_6', 'mer_a', 3, 'INV-000003') as never)
      .execute();
    await expect(
      db
        .insertInto('invoices')
        .values(invoice('inv_7', 'mer_a', 3, 'INV-000003') as never)
        .execute(),
    ).rejects.toThrow(/unique|UNIQUE/);
  });
});
