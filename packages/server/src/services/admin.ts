import { randomBytes } from 'node:crypto';
import { Decimal, SCOPES, decimalText, type Scope } from '@hostpay/protocol';
import { HostpayError } from '../errors.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { newId, nowIso } from '../store/ids.js';
import type { Store } from '../store/store.js';
import { findAssetBySymbol, findChainBySymbol, listNetworksOfAssets } from '../store/repos/catalog.js';
import { findFeeTier, upsertFeeTier, upsertRate, upsertSettlementCurrency } from '../store/repos/fees.js';
import { insertApiKey } from '../store/repos/keys.js';
import { findMerchant, insertMerchant, type MerchantRow } from '../store/repos/merchants.js';
import { insertWallet, listWalletDetails } from '../store/repos/wallets.js';
import type { Caches } from './caches.js';
import { postToLedger, type PostingRequest } from './ledger-service.js';
import { walletView } from './wallet-view.js';

export interface CreatedApiKey {
  apiKey: string;
  /** Shown once, here; stored only sealed under the master key. */
  apiSecret: string;
  merchantId: string;
  scopes: Scope[];
  rateLimitPerMinute: number | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface FeeTierRequest {
  currency: string;
  isPercentage: boolean;
  value: string;
  minValue?: string | undefined;
  onChainFee?: string | undefined;
  fromAmount?: string | undefined;
  feeCurrency?: string | undefined;
  merchantId?: string | undefined;
}

const nonNegative = (label: string, text: string): string => {
  if (!/^[0-9]{1,16}(\.[0-9]{1,18})?$/.test(text)) {
    throw new HostpayError('INVALID_AMOUNT', `${label} must be a decimal number of at least 0 with at most 18 fractional digits, got ${JSON.stringify(text)}`);
  }
  return decimalText(text);
};

/** Operator write operations, shared by the CLI, demo seeding and (later) the admin API. */
export function createAdminServices(store: Store, box: SecretBox, caches: Caches) {
  const db = store.db;

  async function requireMerchant(id: string): Promise<MerchantRow> {
    const merchant = await findMerchant(db, id);
    if (!merchant) throw new HostpayError('NOT_FOUND', `merchant ${id} does not exist`);
    return merchant;
  }

  async function requireAsset(symbol: string) {
    const asset = await findAssetBySymbol(db, symbol.toUpperCase());
    if (!asset) throw new HostpayError('UNSUPPORTED_CURRENCY', `asset ${symbol} is not known`);
    return asset;
  }

  async function getWallet(merchantId: string, walletId: string) {
    const rows = await listWalletDetails(db, merchantId);
    const row = rows.find((r) => r.id === walletId);
    if (!row) throw new HostpayError('NOT_FOUND', `wallet ${walletId} does not exist`);
    return walletView(row, await listNetworksOfAssets(db, [row.asset_id]));
  }

  return {
    getWallet,

    async createMerchant(name: string): Promise<MerchantRow> {
      const trimmed = name.trim();
      if (trimmed.length < 1 || trimmed.length > 200) throw new HostpayError('INVALID_QUERY', 'merchant name must be 1 to 200 characters');
      return insertMerchant(db, trimmed);
    },

    async createApiKey(opts: { merchantId: string; scopes?: string[] | undefined; rateLimitPerMinute?: number | undefined; expiresAt?: string | undefined; ipAllowList?: string[] | undefined }): Promise<CreatedApiKey> {
      await requireMerchant(opts.merchantId);
      const scopes = (opts.scopes ?? [...SCOPES]) as Scope[];
      const unknown = scopes.filter((s) => !SCOPES.includes(s));
      if (unknown.length > 0) throw new HostpayError('INVALID_QUERY', `unknown scope ${unknown.join(', ')}; known scopes: ${SCOPES.join(', ')}`);
      const rate = opts.rateLimitPerMinute ?? null;
      if (rate !== null && (!Number.isInteger(rate) || rate < 1)) throw new HostpayError('INVALID_QUERY', 'rate limit must be a whole number of requests per minute, at least 1');
      const id = newId('hp', 24);
      const secret = 'sk_' + randomBytes(32).toString('base64url');
      const createdAt = nowIso();
      await insertApiKey(db, {
        id,
        merchant_id: opts.merchantId,
        secret_sealed: box.seal(secret, id),
        scopes: JSON.stringify(scopes),
        status: 'active',
        expires_at: opts.expiresAt ?? null,
        ip_allow_list: opts.ipAllowList ? JSON.stringify(opts.ipAllowList) : null,
        rate_limit_per_minute: rate,
        created_at: createdAt,
        revoked_at: null,
        last_used_at: null,
      });
      caches.invalidate({ kind: 'keys' });
      return { apiKey: id, apiSecret: secret, merchantId: opts.merchantId, scopes, rateLimitPerMinute: rate, expiresAt: opts.expiresAt ?? null, createdAt };
    },

    async revokeApiKey(id: string): Promise<void> {
      const res = await db.updateTable('api_keys').set({ status: 'revoked', revoked_at: nowIso() }).where('id', '=', id).executeTakeFirst();
      if (res.numUpdatedRows === 0n) throw new HostpayError('NOT_FOUND', `API key ${id} does not exist`);
      caches.invalidate({ kind: 'keys' });
    },

    async setMerchantStatus(id: string, status: 'active' | 'suspended'): Promise<void> {
      await requireMerchant(id);
      await db.updateTable('merchants').set({ status, updated_at: nowIso() }).where('id', '=', id).execute();
      caches.invalidate({ kind: 'keys' });
    },

    async grantMerchant(keyId: string, merchantId: string): Promise<void> {
      await requireMerchant(merchantId);
      await db.insertInto('merchant_grants').values({ key_id: keyId, merchant_id: merchantId, created_at: nowIso() }).onConflict((oc) => oc.doNothing()).execute();
    },

    async createWallet(opts: { merchantId: string; asset: string; chain: string; active?: boolean | undefined }) {
      await requireMerchant(opts.merchantId);
      const asset = await requireAsset(opts.asset);
      const chain = await findChainBySymbol(db, opts.chain.toUpperCase());
      if (!chain) throw new HostpayError('NOT_FOUND', `chain ${opts.chain} is not known`);
      const at = nowIso();
      const id = newId('wal');
      try {
        await insertWallet(db, { id, merchant_id: opts.merchantId, asset_id: asset.id, chain_id: chain.id, active: opts.active === false ? 0 : 1, amount: '0', freeze_amount: '0', created_at: at, updated_at: at });
      } catch (err) {
        if (/UNIQUE/i.test(String(err))) throw new HostpayError('IDEMPOTENCY_CONFLICT', `merchant ${opts.merchantId} already has a ${asset.symbol} wallet on ${chain.symbol}`);
        throw err;
      }
      caches.invalidate({ kind: 'wallets', merchantId: opts.merchantId });
      return getWallet(opts.merchantId, id);
    },

    post: (req: PostingRequest) => postToLedger(store, caches, req),

    async setFee(req: FeeTierRequest) {
      const currency = (await requireAsset(req.currency)).symbol;
      const merchantId = req.merchantId ?? '';
      if (merchantId !== '') await requireMerchant(merchantId);
      const value = nonNegative('fee value', req.value);
      if (req.isPercentage && new Decimal(value).gt(100)) throw new HostpayError('INVALID_AMOUNT', 'a percentage fee must be at most 100');
      const at = nowIso();
      const row = {
        id: newId('fee'),
        merchant_id: merchantId,
        currency,
        from_amount: nonNegative('from-amount', req.fromAmount ?? '0'),
        is_percentage: req.isPercentage ? 1 : 0,
        value,
        min_value: nonNegative('minimum', req.minValue ?? '0'),
        on_chain_fee: nonNegative('on-chain fee', req.onChainFee ?? '0'),
        created_at: at,
        updated_at: at,
      };
      const feeCurrency = req.feeCurrency === undefined ? undefined : (await requireAsset(req.feeCurrency)).symbol;
      // Only `trx` inside: the SQLite store has one connection, which the transaction holds.
      await store.writeTransaction(async (trx) => {
        await upsertFeeTier(trx, row);
        if (feeCurrency !== undefined) await upsertSettlementCurrency(trx, merchantId, currency, feeCurrency, at);
      });
      caches.invalidate({ kind: 'fees' });
      return findFeeTier(db, merchantId, currency, row.from_amount);
    },

    async setRate(base: string, quote: string, rate: string, source = 'manual') {
      const b = (await requireAsset(base)).symbol;
      const q = (await requireAsset(quote)).symbol;
      const r = nonNegative('rate', rate);
      if (new Decimal(r).isZero()) throw new HostpayError('INVALID_AMOUNT', 'rate must be greater than 0');
      const row = { base: b, quote: q, rate: r, source, updated_at: nowIso() };
      await upsertRate(db, row);
      caches.invalidate({ kind: 'fees' });
      return row;
    },
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
