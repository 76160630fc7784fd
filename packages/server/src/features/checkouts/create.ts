import { decimalText, writeExactJson } from '@hostpay/protocol';
import { newId, randomChunk } from '../../store/ids.js';
import { insertRowStep, prepared } from '../../store/prepared.js';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db, Store } from '../../store/store.js';
import type { Insertable } from 'kysely';
import { addressRow, reserveIndexSteps, type ReservedIndex } from '../addresses/allocate.js';
import type { KeyOpener } from '../addresses/sealed-key.js';
import type { CheckoutOptionTable } from './tables.js';
import type { DepositAddressTable } from '../addresses/tables.js';
import type { BuiltCheckout, Candidate, CreateBatch, CreatedCheckout, MerchantTerms, Offer } from './create-types.js';
import type { Outbox } from '../events/outbox.js';
import type { FeeService } from '../fees/preview.js';
import type { CheckedCreateRequest, CheckoutOrigin } from './create-input.js';
import { DEFAULT_SPREAD_SETTING } from '../merchants/spread.js';
import { priceOffer } from './price-offer.js';
import { timelineStep, type LoadedCheckout, type OptionRow } from './queries.js';
import { checkoutView } from './view.js';

/**
 * `chk_`, the creation time (ms, 9 base-36 digits), then 160 random bits (31 base-36 digits): the
 * random part is the capability to the payment page. The time goes first so that every index
 * keyed by a checkout id (the checkouts' own, its options', its timeline's) grows at its end: with
 * random ids each create wrote three more B-tree leaves, one at a random place in each, to the WAL.
 */
export const newCheckoutId = (nowMs: number): string =>
  `chk_${Math.max(0, Math.trunc(nowMs)).toString(36).padStart(9, '0')}${BigInt(`0x${randomChunk(20).toString('hex')}`)
    .toString(36)
    .padStart(31, '0')}`;

/** Which assets and chains a merchant can be paid in for `wanted` (null: its active wallets). */
export async function candidates(
  db: Db,
  merchantId: string,
  wanted: { asset: string; chain: string }[] | null,
): Promise<Offer> {
  let q = db
    .selectFrom('networks as n')
    .innerJoin('assets as a', 'a.id', 'n.asset_id')
    .innerJoin('chains as c', 'c.id', 'n.chain_id')
    .select([
      'n.id as network_id',
      'n.deposit_enabled',
      'n.name as network_name',
      'n.token_contract',
      'a.id as asset_id',
      'a.symbol as asset',
      'a.decimals',
      'a.active as asset_active',
      'a.is_crypto',
      'c.id as chain_id',
      'c.symbol as chain',
      'c.family',
      'c.network_type',
      'c.account_key_id',
      'c.confirmations_required',
      'c.active as chain_active',
    ]);
  if (wanted === null) {
    // Default: every active wallet of the merchant, in the wallet list's order.
    q = q
      .innerJoin('wallets as w', (j) => j.onRef('w.asset_id', '=', 'n.asset_id').onRef('w.chain_id', '=', 'n.chain_id'))
      .where('w.merchant_id', '=', merchantId)
      .where('w.active', '=', 1)
      .orderBy('w.created_at')
      .orderBy('w.id');
  }
  const rows = await q.execute();
  const refused: string[] = [];
  const offer: Candidate[] = [];
  const pairs = wanted ?? rows.map((r) => ({ asset: r.asset, chain: r.chain }));
  for (const pair of pairs) {
    const r = rows.find((x) => x.asset === pair.asset && x.chain === pair.chain);
    const name = `${pair.asset} on ${pair.chain}`;
    if (r === undefined) refused.push(`${name}: not in the catalog`);
    else if (r.asset_active !== 1 || r.chain_active !== 1 || r.deposit_enabled !== 1)
      refused.push(`${name}: deposits are disabled`);
    else if (r.is_crypto !== 1) refused.push(`${name}: not a crypto asset`);
    else if (r.account_key_id === null)
      refused.push(`${name}: the operator has not set a deposit key (xpub) for ${r.chain}`);
    else {
      offer.push({
        asset: r.asset,
        chain: r.chain,
        assetId: r.asset_id,
        assetDecimals: r.decimals,
        networkId: r.network_id,
        networkName: r.network_name,
        tokenContract: r.token_contract,
        chainRow: {
          id: r.chain_id,
          symbol: r.chain,
          family: r.family,
          network_type: r.network_type,
          account_key_id: r.account_key_id,
          confirmations_required: r.confirmations_required,
        },
      });
    }
  }
  return { offer, refused };
}

const termsQuery = prepared(['merchantId'], (db, v) =>
  db
    .selectFrom('merchants')
    .select((eb) => [
      'underpayment_tolerance_percent',
      'rate_spread_percent',
      'default_success_url',
      'default_cancel_url',
      eb
        .selectFrom('pricing_settings')
        .select('value')
        .where('name', '=', DEFAULT_SPREAD_SETTING)
        .as('default_spread_percent'),
    ])
    .where('id', '=', v.merchantId as string),
);

/** What `CreateContext.terms` reads on a miss. */
export async function loadTerms(db: Db, merchantId: string): Promise<MerchantTerms> {
  const [merchant] = (await termsQuery(db, { merchantId })).rows;
  if (merchant === undefined) throw new Error(`merchant ${merchantId} is missing`);
  return {
    percent: merchant.underpayment_tolerance_percent,
    spreadPercent: merchant.rate_spread_percent ?? merchant.default_spread_percent ?? '0',
    successUrl: merchant.default_success_url,
    cancelUrl: merchant.default_cancel_url,
  };
}

export interface CreateContext {
  publicBaseUrl: string;
  nowMs: number;
  /** The request's offer: `candidates`, possibly from a cache (never changed here). */
  offer: (merchantId: string, wanted: { asset: string; chain: string }[] | null) => Offer | Promise<Offer>;
  /** The merchant's tolerance and spread: `loadTerms`, possibly from a cache. */
  terms: (merchantId: string) => MerchantTerms | Promise<MerchantTerms>;
  /** PostgreSQL: where the rows go instead of a transaction of their own (create-batch.ts). */
  batch?: CreateBatch | undefined;
  /** Opens the sealed account keys addresses are derived from. */
  box: KeyOpener;
  /** Where `checkout.created` goes. */
  outbox: Outbox;
  /** The payment link or invoice making it (never from the wire). */
  origin?: CheckoutOrigin | undefined;
  /**
   * Runs first inside the create's own write transaction (a payment link counting its live
   * checkouts against `maxUses`): a throw writes nothing. A create with a guard is never batched.
   * It is given the new checkout's id, so what it writes can name the checkout in the same commit.
   */
  guard?: ((trx: Db, checkoutId: string) => Promise<void>) | undefined;
}

/**
 * Creates a checkout: the fee by the fee preview's own code, one priced option per payable asset
 * and chain (rate locked until expiry), a fresh deposit address for each, the first timeline
 * entry and the `checkout.created` event — all in one transaction, or nothing.
 */
export async function createCheckout(
  store: Store,
  fees: FeeService,
  merchantId: string,
  req: CheckedCreateRequest,
  ctx: CreateContext,
): Promise<CreatedCheckout> {
  const fee = await fees.preview(merchantId, req.amount, req.currency, ctx.nowMs);
  const offer = await ctx.offer(merchantId, req.paymentOptions);
  const terms = await ctx.terms(merchantId);
  const priced = await priceOffer(fees, req, fee, offer, terms, ctx.nowMs);
  const at = new Date(ctx.nowMs).toISOString();
  const id = newCheckoutId(ctx.nowMs);
  const row = {
    id,
    merchant_id: merchantId,
    status: 'open',
    reason: null,
    amount: decimalText(req.amount),
    currency: req.currency,
    fee: writeExactJson(fee),
    order_id: req.orderId,
    description: req.description,
    metadata: JSON.stringify(req.metadata),
    success_url: req.successUrl ?? terms.successUrl,
    cancel_url: req.cancelUrl ?? terms.cancelUrl,
    tolerance_percent: terms.percent,
    settled_option_id: null,
    credited_posting_id: null,
    payment_link_id: ctx.origin?.paymentLinkId ?? null,
    invoice_id: ctx.origin?.invoiceId ?? null,
    customer_email: req.customerEmail,
    receipt_number: null,
    expires_at: new Date(ctx.nowMs + req.expiresIn * 1000).toISOString(),
    created_at: at,
    updated_at: at,
  };
  const build = (reserved: ReservedIndex[]): BuiltCheckout => {
    const options: OptionRow[] = [];
    const addresses: Insertable<DepositAddressTable>[] = [];
    for (const [i, { c, p, quote }] of priced.entries()) {
      const optionId = newId('opt');
      const address = addressRow(ctx.box, c.chainRow, reserved[i]!, { checkoutId: id, optionId }, at);
      addresses.push(address);
      options.push({
        id: optionId,
        checkout_id: id,
        position: options.length,
        asset_id: c.assetId,
        chain_id: c.chainRow.id,
        network_id: c.networkId,
        address: address.address,
        amount_due: decimalText(p.amountDue),
        rate: decimalText(p.rate),
        fee_in_asset: decimalText(p.feeInAsset),
        net_amount: decimalText(p.netAmount),
        confirmations_required: c.chainRow.confirmations_required,
        // Nothing converted: the identity rate, quoted when the checkout was made.
        rate_source: quote?.source ?? 'identity',
        rate_at: quote?.at ?? at,
        rate_spread_percent: decimalText(p.spreadPercent),
        asset_symbol: c.asset,
        asset_decimals: c.assetDecimals,
        chain_symbol: c.chain,
        chain_family: c.chainRow.family,
        network_name: c.networkName,
        token_contract: c.tokenContract,
      });
    }
    // The checkout as written (a GET reads back the same: checkout-flow.test.ts compares them).
    const checkout: LoadedCheckout = {
      row,
      options,
      transfers: [],
      timeline: [{ checkout_id: id, seq: 0, status: 'open', reason: null, at }],
    };
    // The fee as previewed: row.fee is this object's exact JSON, so the answer is the same as a GET's.
    const json = writeExactJson(checkoutView(checkout, ctx.publicBaseUrl, fee));
    return { checkout, json, addresses, at };
  };
  // PostgreSQL: indices from blocks taken ahead, rows written with the other creates of this turn
  // of the event loop in one statement (create-batch.ts).
  if (ctx.batch !== undefined && ctx.guard === undefined) {
    const batch = ctx.batch;
    const built = build(await Promise.all(priced.map(({ c }) => batch.indices.take(c.chainRow))));
    await batch.write(built);
    return { checkout: built.checkout, json: built.json };
  }
  // SQLite: the statements run synchronously inside the group commit (store/steps.ts).
  function* write(db: Db): Steps<CreatedCheckout> {
    const reserved: ReservedIndex[] = [];
    for (const { c } of priced) reserved.push(yield* reserveIndexSteps(c.chainRow));
    const built = build(reserved);
    yield insertRowStep('checkouts', row);
    for (const [i, option] of built.checkout.options.entries()) {
      yield insertRowStep('deposit_addresses', built.addresses[i]!);
      yield insertRowStep('checkout_options', optionColumns(option));
    }
    yield timelineStep(id, 0, 'open', null, at);
    yield* ctx.outbox.appendSteps(db, merchantId, 'checkout.created', built.json, at, id);
    return { checkout: built.checkout, json: built.json };
  }
  const guard = ctx.guard;
  if (guard === undefined) return store.writeSteps(write);
  return store.writeTransaction(async (trx) => {
    await guard(trx, id);
    return runSteps(trx, write(trx));
  });
}

/** An option's own columns (an OptionRow also carries what the view joins in). */
export function optionColumns(o: OptionRow): Insertable<CheckoutOptionTable> {
  return {
    id: o.id,
    checkout_id: o.checkout_id,
    position: o.position,
    asset_id: o.asset_id,
    chain_id: o.chain_id,
    network_id: o.network_id,
    address: o.address,
    amount_due: o.amount_due,
    rate: o.rate,
    fee_in_asset: o.fee_in_asset,
    net_amount: o.net_amount,
    confirmations_required: o.confirmations_required,
    rate_source: o.rate_source,
    rate_at: o.rate_at,
    rate_spread_percent: o.rate_spread_percent,
  };
}
