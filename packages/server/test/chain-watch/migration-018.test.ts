import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL, type Dialect } from '../helpers.js';

/**
 * Migration 018 renames the EVM watcher's tables to chain_* and adds the adapter kind, the sealed
 * API key and the network id: a watch and its kept blocks written under migration 017's schema
 * come through whole, the EVM chain id becoming the network id.
 */
describe.each(DIALECTS)('migration 018 (chain watch) on %s', (dialect: Dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function store17(): Promise<Store> {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-mig18-'));
    const schema = `hp_m18_${randomBytes(6).toString('hex')}`;
    const store =
      dialect === 'sqlite'
        ? openSqliteStore(join(dataDir, 'hostpay.db'))
        : await openPostgresStore(TEST_DATABASE_URL, { schema });
    cleanups.push(async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    });
    await migrate(store, { upTo: 17 });
    return store;
  }

  it('keeps every watch and kept block; existing watches are evm-rpc with their chain id as network id', async () => {
    const store = await store17();
    const at = '2026-11-01T10:00:00.000Z';
    await sql`INSERT INTO evm_watches (chain_id, rpc_url_sealed, rpc_url_shown, tokens, native_asset, native_decimals,
        poll_interval_ms, allow_private_rpc, enabled, node_chain_id, start_block, cursor_block, head_block,
        last_round_at, last_error, last_error_at, lease_owner, lease_expires_at, created_at, updated_at)
      VALUES ('chn_eth', 'sealed-url', 'https://node.example/v3/***', '[]', 'ETH', 18, 4000, 0, 1, 31337, 100,
        1234567890123, 1234567890125, ${at}, 'last', ${at}, 'evw_x', ${at}, ${at}, ${at})`.execute(store.db);
    await sql`INSERT INTO evm_watch_blocks (chain_id, number, hash) VALUES ('chn_eth', 1234567890123, '0xabc')`.execute(
      store.db,
    );
    expect(await migrate(store, { upTo: 18 })).toEqual({ applied: [18] });

    const w = await store.db.selectFrom('chain_watches').selectAll().executeTakeFirstOrThrow();
    expect({ ...w, cursor_block: Number(w.cursor_block), head_block: Number(w.head_block) }).toMatchObject({
      chain_id: 'chn_eth',
      adapter_kind: 'evm-rpc',
      api_key_sealed: null,
      network_id: '31337',
      rpc_url_sealed: 'sealed-url',
      rpc_url_shown: 'https://node.example/v3/***',
      native_asset: 'ETH',
      poll_interval_ms: 4000,
      cursor_block: 1234567890123,
      head_block: 1234567890125,
      last_error: 'last',
      lease_owner: 'evw_x',
    });
    expect(w).not.toHaveProperty('node_chain_id');
    const blocks = await store.db.selectFrom('chain_watch_blocks').selectAll().execute();
    expect(blocks.map((b) => ({ ...b, number: Number(b.number) }))).toEqual([
      { chain_id: 'chn_eth', number: 1234567890123, hash: '0xabc' },
    ]);
    // The old names are gone: nothing reads a stale copy.
    await expect(sql`SELECT * FROM evm_watches`.execute(store.db)).rejects.toThrow();
  });
});
