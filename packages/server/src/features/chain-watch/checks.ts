import { invalid } from '../../admin/deps.js';
import type { Db } from '../../store/store.js';
import { familyOf, familyOfKind } from '../../chain-families/index.js';
import { isAdapterKind, type AdapterKind } from './adapters/index.js';
import type { WatchedToken } from './config.js';
import type { WatchRequest } from './watch-request.js';

export const NETWORK_ID = /^[0-9A-Za-z]{1,128}$/;

/** The tokens a watch follows, checked against the chain's networks in the catalog (never a rounding contract). */
export async function checkTokens(
  trx: Db,
  chainId: string,
  family: string,
  req: WatchRequest['tokens'],
): Promise<WatchedToken[]> {
  const networks = await trx
    .selectFrom('networks as n')
    .innerJoin('assets as a', 'a.id', 'n.asset_id')
    .select(['a.symbol', 'a.decimals', 'n.token_contract'])
    .where('n.chain_id', '=', chainId)
    .orderBy('a.symbol')
    .execute();
  const wanted =
    req ??
    networks
      .filter((n) => n.token_contract !== null)
      .map((n) => ({ asset: n.symbol, contract: undefined, decimals: undefined }));
  if (wanted.length > 50) invalid('tokens: at most 50 token contracts per chain');
  const seen = new Set<string>();
  return wanted.map((t, i) => {
    const symbol = t.asset.toUpperCase();
    const network = networks.find((n) => n.symbol === symbol);
    if (network === undefined)
      invalid(
        `tokens[${i}]: ${symbol} has no network on this chain: add it first (POST /admin/v1/networks, hostpay network add)`,
      );
    const contract = t.contract ?? network.token_contract;
    const rules = familyOf(family).tokens;
    if (rules === null) invalid(`tokens: a ${family} chain has no token contracts to watch`);
    if (contract === null || !rules.pattern.test(contract))
      invalid(
        `tokens[${i}].contract must be the token's ${rules.described}${network.token_contract === null ? `; ${symbol} on this chain has none in the catalog` : ''}`,
      );
    const decimals = t.decimals ?? network.decimals;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
      invalid(`tokens[${i}].decimals must be a whole number from 0 to 36 (the token contract's decimals())`);
    // An amount in base units must be representable in the asset: no rounding, ever.
    if (decimals > network.decimals)
      invalid(
        `tokens[${i}]: the ${symbol} contract has ${decimals} decimals but the asset ${symbol} has precision ${network.decimals}: raise the asset's precision first (PATCH /admin/v1/assets/${symbol})`,
      );
    // EVM addresses compare without case; base58 ones are case-sensitive and stay as they are.
    const spelled = rules.watchSpelling(contract);
    if (seen.has(spelled)) invalid(`tokens[${i}]: contract ${contract} is listed twice`);
    seen.add(spelled);
    return { asset: symbol, contract: spelled, decimals };
  });
}

export async function checkNative(
  trx: Db,
  chainId: string,
  asset: string | null | undefined,
  decimals: number,
): Promise<string | null> {
  const natives = await trx
    .selectFrom('networks as n')
    .innerJoin('assets as a', 'a.id', 'n.asset_id')
    .select(['a.symbol', 'a.decimals'])
    .where('n.chain_id', '=', chainId)
    .where('n.token_contract', 'is', null)
    .execute();
  if (asset === null) return null;
  const pick = asset === undefined ? natives[0] : natives.find((n) => n.symbol === asset.toUpperCase());
  if (pick === undefined) {
    if (asset === undefined) return null;
    invalid(
      `nativeAsset: ${asset.toUpperCase()} is not a network without a token contract on this chain (the chain's own coin); use null to watch tokens only`,
    );
  }
  if (decimals > pick.decimals)
    invalid(
      `nativeDecimals ${decimals} is more than the precision of ${pick.symbol} (${pick.decimals}): raise the asset's precision first`,
    );
  return pick.symbol;
}

/** The adapter kind of a watch: one this build has, for the chain's family. */
export function checkKind(chain: { symbol: string; family: string }, asked: string | undefined): AdapterKind {
  const kind = asked ?? familyOf(chain.family).adapterKinds[0];
  if (kind === undefined || !isAdapterKind(kind))
    invalid(`kind must be one of evm-rpc, esplora, bitcoin-core, tron-http (the adapter that talks to the node)`);
  const serves = familyOfKind(kind)?.name;
  if (serves !== chain.family)
    invalid(`kind ${kind} talks to ${serves} nodes, but ${chain.symbol} is a ${chain.family} chain`);
  return kind;
}
