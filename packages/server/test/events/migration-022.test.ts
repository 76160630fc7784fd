import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { describeStores, TEST_DATABASE_URL } from '../helpers.js';

/**
 * Migration 022 over a store as release 21 left it on PostgreSQL: `checkout.created` events of
 * batched creates without their `checkout_id`. They get it from their JSON; events that have one,
 * or are about no checkout, are left as they are.
 */
describeStores('migration 022', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-mig22-'));
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  let store: Store;
  afterAll(async () => {
    await store?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets the checkout_id of checkout events written without one, from their JSON; touches no other row', async () => {
    store =
      dialect === 'sqlite'
        ? openSqliteStore(join(dataDir, 'hostpay.db'))
        : await openPostgresStore(TEST_DATABASE_URL, { schema });
    await migrate(store, { upTo: 21 });
    const db = store.db;
    const event = (id: string, sequence: number, type: string, object: string, checkoutId: string | null) => ({
      id,
      merchant_id: 'mer_old',
      sequence,
      type,
      data: `{"object":${object}}`,
      created_at: '2027-01-01T00:00:00.000Z',
      checkout_id: checkoutId,
    });
    await db
      .insertInto('events')
      .values([
        // What the batched create wrote on PostgreSQL before the fix.
        event('evt_1', 1, 'checkout.created', '{"id":"chk_a","amount":12.345678901234567890}', null),
        event('evt_2', 2, 'checkout.created', '{"id":"chk_b","amount":1}', null),
        // Written by the one-event path: already right.
        event('evt_3', 3, 'checkout.settled', '{"id":"chk_a"}', 'chk_a'),
        event('evt_4', 4, 'wallet.balance_changed', '{"walletId":"w1","amount":2}', null),
        event('evt_5', 5, 'test.ping', '{"endpointId":"we_1","url":"https://x","message":"hi"}', null),
      ])
      .execute();

    await migrate(store);

    const events = await db.selectFrom('events').select(['id', 'checkout_id', 'data']).orderBy('sequence').execute();
    expect(events.map((e) => [e.id, e.checkout_id])).toEqual([
      ['evt_1', 'chk_a'],
      ['evt_2', 'chk_b'],
      ['evt_3', 'chk_a'],
      ['evt_4', null],
      ['evt_5', null],
    ]);
    // The JSON text itself is untouched (exact decimals included).
    expect(events[0]!.data).toBe('{"object":{"id":"chk_a","amount":12.345678901234567890}}');
  });
});
