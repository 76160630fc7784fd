import { decimalText } from '@hostpay/protocol';
import type { AuditContext, Config, Services } from '@hostpay/server';
import { configFrom, openServices, operatorName } from '../context.js';
import { UsageError, type Io } from '../output.js';
import type { AdminBackend, Grant, PostingResult } from './backend.js';
import { fromWire } from './exact.js';

/** A rotation needs the new key and the old one(s), both from the environment. */
export function requireRotationKeys(config: Pick<Config, 'masterKey' | 'masterKeyPrevious'>): void {
  if (config.masterKey === '' || config.masterKeyPrevious === '') {
    throw new UsageError('master-key rotate needs the new key in HOSTPAY_MASTER_KEY and the old one(s) in HOSTPAY_MASTER_KEY_PREVIOUS (comma-separated); see hostpay master-key rotate --help');
  }
}

/** The service result in the backend's types (exact decimal strings). */
const plain = async <T>(result: Promise<unknown>): Promise<T> => fromWire(await result) as T;

/**
 * The local store, through the same admin services the admin API uses. Every change is audited
 * as `cli:<login>`. `allowNewMasterKey`: may create `<data-dir>/master.key` when none exists
 * (never for master-key rotate, which must be given both keys).
 */
export async function openLocalBackend(io: Io, opts: { dataDir?: string | undefined; allowNewMasterKey: boolean }): Promise<AdminBackend> {
  const config = await configFrom(io, { dataDir: opts.dataDir });
  const services = await openServices(io, config, opts.allowNewMasterKey);
  return localBackend(services, config, { operator: operatorName(io) });
}

export function localBackend(services: Services, config: Config, ctx: AuditContext): AdminBackend {
  const a = services.admin;
  // Like the admin API: an unknown key is NOT_FOUND rather than a key without grants.
  const grantsOf = async (keyId: string): Promise<Grant[]> => {
    await a.getApiKey(keyId);
    return (await a.listGrants(keyId)).map((g) => ({ keyId, ...g }));
  };
  return {
    kind: 'local',
    target: config.dataDir,
    merchants: {
      create: (name) => plain(a.createMerchant(name, ctx)),
      get: (id) => plain(a.getMerchant(id)),
      list: (q) => plain(a.listMerchants(q)),
      rename: (id, name) => plain(a.updateMerchant(id, { name }, ctx)),
      suspend: (id) => plain(a.updateMerchant(id, { status: 'suspended' }, ctx)),
      resume: (id) => plain(a.updateMerchant(id, { status: 'active' }, ctx)),
    },
    keys: {
      create: (merchantId, settings) => plain(a.createApiKey(merchantId, settings, ctx)),
      list: (q) => plain(a.listApiKeys(q)),
      get: (id) => plain(a.getApiKey(id)),
      update: (id, settings) => plain(a.updateApiKey(id, settings, ctx)),
      revoke: (id) => plain(a.revokeApiKey(id, ctx)),
      rotate: (id, overlapUntil) => plain(a.rotateApiKey(id, overlapUntil, ctx)),
      async grant(keyId, merchantId) {
        await a.grantMerchant(keyId, merchantId, ctx);
        const grant = (await grantsOf(keyId)).find((g) => g.merchantId === merchantId);
        if (grant === undefined) throw new Error(`the grant of ${keyId} for ${merchantId} was not stored`);
        return grant;
      },
      ungrant: async (keyId, merchantId) => (await a.revokeGrant(keyId, merchantId, ctx), { keyId, merchantId, deleted: true as const }),
      grants: grantsOf,
    },
    wallets: {
      create: (req) => plain(a.createWallet(req, ctx)),
      get: (id) => plain(a.getWallet(id)),
      list: (q) => plain(a.listWallets(q)),
      setActive: (id, active) => plain(a.setWalletActive(id, active, ctx)),
      async post(req, w) {
        const { posting: p, replayed } = await a.post({ ...req, idempotencyKey: w?.idempotencyKey }, ctx);
        const result: PostingResult = {
          id: p.id,
          walletId: p.wallet_id,
          kind: p.kind,
          amount: decimalText(p.amount),
          idempotencyKey: p.idempotency_key,
          amountAfter: decimalText(p.amount_after),
          freezeAmountAfter: decimalText(p.freeze_amount_after),
          createdAt: p.created_at,
          replayed,
        };
        return result;
      },
      postings: (walletId, q) => plain(a.listPostings(walletId, q)),
    },
    assets: {
      networks: (symbol) => plain(a.assetNetworks(symbol)),
    },
    fees: {
      set: (req) => plain(a.setFee(req, ctx)),
      list: (q) => plain(a.listFees(q)),
      delete: async (id) => (await a.deleteFeeTier(id, ctx), { id, deleted: true as const }),
      preview: (q) => plain(a.operatorPreview(q.merchantId, q.currency, q.amount)),
    },
    settlement: {
      set: (req) => plain(a.setSettlementCurrency(req, ctx)),
      list: () => plain(a.listSettlementCurrencies()),
    },
    rates: {
      set: (req) => plain(a.setRate(req, ctx)),
      list: () => plain(a.listRates()),
    },
    audit: {
      list: (q) => plain(a.listAudit(q, q)),
    },
    masterKey: {
      async rotate() {
        requireRotationKeys(config);
        try {
          return await a.rotateMasterKey(ctx);
        } catch (err) {
          // A secret sealed under a key that is in neither variable: the earlier rows are already
          // re-sealed (each is its own transaction), so adding the key and running again finishes.
          if (err instanceof Error && /which is not configured/.test(err.message)) {
            throw new Error(`${err.message}: add that key to HOSTPAY_MASTER_KEY_PREVIOUS and run again (secrets already re-sealed stay valid)`);
          }
          throw err;
        }
      },
    },
    close: () => services.close(),
  };
}
