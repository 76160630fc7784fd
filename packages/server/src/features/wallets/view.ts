import { decimalText, jsonDecimal, type Wallet, type WithExactNumbers } from '@hostpay/protocol';
import type { WalletDetailRow } from './queries.js';

export interface NetworkView {
  id: string;
  asset_id: string;
  chain_id: string;
  name: string;
  deposit_enabled: number;
  chain_symbol: string;
}

/** A stored wallet as the wire shows it (interface §2.2), amounts exact. */
export function walletView(row: WalletDetailRow, networks: NetworkView[]): WithExactNumbers<Wallet> {
  return {
    id: row.id,
    active: row.active === 1,
    amount: jsonDecimal(decimalText(row.amount)),
    freezeAmount: jsonDecimal(decimalText(row.freeze_amount)),
    isCrypto: row.asset_is_crypto === 1,
    asset: row.asset_symbol,
    assetDetails: { symbol: row.asset_symbol, name: row.asset_name, image: row.asset_image },
    chain: { name: row.chain_name, symbol: row.chain_symbol },
    assetId: row.asset_id,
    chainId: row.chain_id,
    networks: networks.map((n) => ({
      id: n.id,
      name: n.name,
      chainId: n.chain_id,
      chainSymbol: n.chain_symbol,
      depositEnabled: n.deposit_enabled === 1,
    })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
