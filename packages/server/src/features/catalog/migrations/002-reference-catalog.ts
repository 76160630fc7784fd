import type { Kysely } from 'kysely';

/**
 * v2: the reference catalog every installation starts with — the assets and chains hostpay
 * knows, with their precision (fee rounding) and the networks each asset can be deposited on.
 */
const ASSETS = [
  ['ast_usdt', 'USDT', 'Tether USD', 'usdt.png', 6, 1],
  ['ast_usdc', 'USDC', 'USD Coin', 'usdc.png', 6, 1],
  ['ast_btc', 'BTC', 'Bitcoin', 'btc.png', 8, 1],
  ['ast_eth', 'ETH', 'Ether', 'eth.png', 18, 1],
  ['ast_trx', 'TRX', 'TRON', 'trx.png', 6, 1],
  ['ast_eur', 'EUR', 'Euro', 'eur.png', 2, 0],
  ['ast_usd', 'USD', 'US Dollar', 'usd.png', 2, 0],
] as const;

const CHAINS = [
  ['chn_tron', 'TRON', 'Tron'],
  ['chn_eth', 'ETH', 'Ethereum'],
  ['chn_btc', 'BTC', 'Bitcoin'],
] as const;

const NETWORKS = [
  ['net_usdt_tron', 'ast_usdt', 'chn_tron', 'TRC20'],
  ['net_usdt_eth', 'ast_usdt', 'chn_eth', 'ERC20'],
  ['net_usdc_eth', 'ast_usdc', 'chn_eth', 'ERC20'],
  ['net_usdc_tron', 'ast_usdc', 'chn_tron', 'TRC20'],
  ['net_btc_btc', 'ast_btc', 'chn_btc', 'Bitcoin'],
  ['net_eth_eth', 'ast_eth', 'chn_eth', 'Ethereum'],
  ['net_trx_tron', 'ast_trx', 'chn_tron', 'TRON'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const d = db as Kysely<Record<string, Record<string, unknown>>>;
  await d
    .insertInto('assets')
    .values(
      ASSETS.map(([id, symbol, name, image, decimals, isCrypto]) => ({
        id,
        symbol,
        name,
        image,
        decimals,
        is_crypto: isCrypto,
      })),
    )
    .execute();
  await d
    .insertInto('chains')
    .values(CHAINS.map(([id, symbol, name]) => ({ id, symbol, name })))
    .execute();
  await d
    .insertInto('networks')
    .values(NETWORKS.map(([id, asset_id, chain_id, name]) => ({ id, asset_id, chain_id, name, deposit_enabled: 1 })))
    .execute();
}
