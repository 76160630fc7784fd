import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers.js';

/**
 * Migration 020 over a store as release 17 left it: merchants keep working with null page
 * settings, and existing events learn the checkout they are about from their own JSON.
 */
describe.each(DIALECTS)('migration 020 on %s', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-mig20-'));
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  let store: Store;
  afterAll(async () => {
    await store?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps merchants and events, sets events.checkout_id from their JSON', async () => {
    store =
      dialect === 'sqlite'
        ? openSqliteStore(join(dataDir, 'hostpay.db'))
        : await openPostgresStore(TEST_DATABASE_URL, { schema });
    await migrate(store, { upTo: 17 });
    const at = '2027-01-01T00:00:00.000Z';
    const db = store.db;
    await db
      .insertInto('merchants')
      .values({
        id: 'mer_old',
        name: 'Old shop',
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
    const event = (id: string, sequence: number, type: string, object: string) => ({
      id,
      merchant_id: 'mer_old',
      sequence,
      type,
      data: `{"object":${object}}`,
      created_at: at,
    });
    await db
      .insertInto('events')
      .values([
        event('evt_1', 1, 'checkout.settled', '{"id":"chk_a","amount":12.345678901234567890}'),
        event('evt_2', 2, 'wallet.balance_changed', '{"walletId":"w1","amount":1.5,"checkoutId":"chk_a"}'),
        event('evt_3', 3, 'wallet.balance_changed', '{"walletId":"w1","amount":2}'),
        event('evt_4', 4, 'refund.requested', '{"id":"po_1","refundOf":"chk_b"}'),
        event('evt_5', 5, 'test.ping', '{"endpointId":"we_1","url":"https://x","message":"hi"}'),
      ] as never)
      .execute();

    await migrate(store);

    const merchant = await db.selectFrom('merchants').selectAll().where('id', '=', 'mer_old').executeTakeFirstOrThrow();
    expect(merchant).toMatchObject({
      name: 'Old shop',
      display_name: null,
      logo_url: null,
      default_success_url: null,
      default_cancel_url: null,
    });
    const events = await db.selectFrom('events').select(['id', 'checkout_id', 'data']).orderBy('sequence').execute();
    expect(events.map((e) => [e.id, e.checkout_id])).toEqual([
      ['evt_1', 'chk_a'],
      ['evt_2', 'chk_a'],
      ['evt_3', null],
      ['evt_4', 'chk_b'],
      ['evt_5', null],
    ]);
    // The JSON text itself is untouched (exact decimals included).
    expect(events[0]!.data).toBe('{"object":{"id":"chk_a","amount":12.345678901234567890}}');
  });
});
