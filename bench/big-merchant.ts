/**
 * A merchant with many wallets, for the large-answer figures (bench/run.ts, bench/client.ts).
 * The reference catalog has 7 asset/chain pairs and a merchant holds one wallet per pair, so the
 * bench adds its own assets to the catalog (there is no operator API for that): `count / 2`
 * assets, each on TRON and ETH, each wallet with a balance of 18 fractional digits, a third with
 * a frozen part. 1,000 wallets give a ~0.65 MB answer (each wallet lists its asset's 2 networks).
 */
import type { Services } from '@hostpay/server';

export interface BigMerchant {
  merchantId: string;
  apiKey: string;
  apiSecret: string;
}

const CHAINS = [
  ['chn_tron', 'TRON', 'TRC20'],
  ['chn_eth', 'ETH', 'ERC20'],
] as const;

/** Deterministic 18-digit fractions, so runs compare like with like. */
const fraction = (i: number): string => String((i * 7_919_000_003 + 1) % 1_000_000_000_000_000_000).padStart(18, '0');

export async function seedBigMerchant(services: Services, count = 1000): Promise<BigMerchant> {
  const { admin, store } = services;
  const ctx = { operator: 'bench' };
  const merchant = await admin.createMerchant(`Bench ${count}-wallet merchant`, ctx);
  const key = await admin.createApiKey(merchant.id, { rateLimitPerMinute: 1_000_000_000, label: 'bench-big' }, ctx);
  const assets = Math.ceil(count / CHAINS.length);
  const db = store.db as unknown as {
    insertInto(table: string): { values(rows: Record<string, unknown>[]): { execute(): Promise<unknown> } };
  };
  const tag = merchant.id.slice(-6).toUpperCase();
  const assetRows = Array.from({ length: assets }, (_, i) => ({
    id: `ast_bench_${tag}_${i}`,
    symbol: `B${tag}${String(i).padStart(4, '0')}`,
    name: `Bench token ${i}`,
    image: `bench-${i}.png`,
    decimals: 18,
    is_crypto: 1,
  }));
  // SQLite caps bound variables per statement; 100 rows at a time stays well under it.
  for (let i = 0; i < assetRows.length; i += 100)
    await db
      .insertInto('assets')
      .values(assetRows.slice(i, i + 100))
      .execute();
  const networkRows = assetRows.flatMap((a) =>
    CHAINS.map(([chainId, , name]) => ({
      id: `net_${a.id}_${chainId}`,
      asset_id: a.id,
      chain_id: chainId,
      name,
      deposit_enabled: 1,
    })),
  );
  for (let i = 0; i < networkRows.length; i += 100)
    await db
      .insertInto('networks')
      .values(networkRows.slice(i, i + 100))
      .execute();
  // Wallet rows are written directly, balances included, in bulk: going through the ledger one
  // posting at a time would take seconds, and the read path only sees the wallet rows.
  const at = new Date().toISOString();
  const walletRows = networkRows.slice(0, count).map((net, n) => ({
    id: `wal_bench_${tag}_${n}`,
    merchant_id: merchant.id,
    asset_id: net.asset_id,
    chain_id: net.chain_id,
    active: n % 10 === 9 ? 0 : 1,
    amount: `${1 + ((n * 37) % 100_000)}.${fraction(n)}`.replace(/\.?0+$/, ''),
    freeze_amount: n % 3 === 0 ? `0.${fraction(n + 1)}`.replace(/\.?0+$/, '') : '0',
    created_at: at,
    updated_at: at,
  }));
  for (let i = 0; i < walletRows.length; i += 100)
    await db
      .insertInto('wallets')
      .values(walletRows.slice(i, i + 100))
      .execute();
  await services.caches.invalidate({ kind: 'all' });
  return { merchantId: merchant.id, apiKey: key.apiKey, apiSecret: key.apiSecret };
}
