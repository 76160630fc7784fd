import { capabilityHash, isCapabilityShaped, newCapabilityToken } from '../../crypto/capability-token.js';
import { Decimal, decimalText, jsonDecimal, writeExactJson } from '@hostpay/protocol';
import type { Caches } from '../../cache/caches.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import {
  appendTimeline,
  findCheckout,
  loadCheckouts,
  lockCheckout,
  type LoadedCheckout,
} from '../checkouts/queries.js';
import { lockEventCounter, type Outbox } from '../events/outbox.js';
import { balanceChangedJson, creditInTransaction } from '../ledger/service.js';
import { refundCreditKey } from '../payouts/moves.js';
import { checkoutMoney } from './money.js';
import { REFUND_LINK_TTL_MS, refundLinkPath } from './links.js';
import { givenAddress, mailTarget, recordRefundLinkMail, type RefundMailAsk } from './mail.js';
import {
  chainFacts,
  findRefundLink,
  insertRefundLink,
  merchantName,
  useRefundLink,
  type RefundLinkRow,
} from './queries.js';
import { refundability, UNCREDITED_STATUSES, type RefundTarget } from './refundable.js';
import type { RefundPayouts, RefundSource } from './payouts-seam.js';

/** The checkout's timeline entry of a refund (its `status` field; the checkout's own status is unchanged). */
export const REFUND_TIMELINE_STATUS = 'refund_requested';

export interface RefundDeps {
  store: Store;
  /** Seals the mail of a refund link (it holds the token). */
  box: Pick<SecretBox, 'seal'>;
  caches: Caches;
  publicBaseUrl: () => string;
  now: () => number;
  /** Where the refunds' events go. */
  outbox: Outbox;
  /** Undefined: no payouts feature registered; refunds answer 503 until it is. */
  payouts: RefundPayouts | undefined;
  /** What earlier refunds of a checkout took (payouts with refundOf, not rejected, canceled or failed). */
  refundedSoFar: (db: Db, checkoutId: string) => Promise<Decimal>;
}

const num = (d: Decimal | string) => jsonDecimal(decimalText(d));

/** What a payer's refund page shows: the state of the link and, while usable, what it refunds. */
export type RefundPage =
  | { kind: 'not_found' }
  | (RefundFacts & { kind: 'form'; amount: string })
  | (RefundFacts & { kind: 'expired' })
  | (RefundFacts & { kind: 'used'; usedAt: string })
  | (RefundFacts & { kind: 'nothing_left' });

export interface RefundFacts {
  checkoutId: string;
  /** Whose page it is: its default language and colours (self-service's merchantLook). */
  merchantId: string;
  merchantName: string;
  asset: string;
  chain: string;
  chainName: string;
  /** The asset's network name on that chain (ERC20, TRC20, Bitcoin), else the chain's name. */
  network: string;
  family: string;
  networkType: string;
  expiresAt: string;
}

export function refundService(deps: RefundDeps) {
  const { store } = deps;
  const db = store.db;
  const at = () => new Date(deps.now()).toISOString();

  function payoutsPort(): RefundPayouts {
    if (deps.payouts === undefined)
      throw new HostpayError('UNAVAILABLE', 'refunds need the payouts feature, which this server does not run');
    return deps.payouts;
  }

  async function loadOwned(trx: Db, merchantId: string, checkoutId: string, lock: boolean): Promise<LoadedCheckout> {
    const row = lock ? await lockCheckout(trx, checkoutId, store.dialect) : await findCheckout(trx, checkoutId);
    // Another merchant's checkout is "not found", never "forbidden", as on every checkout route.
    if (row === undefined || row.merchant_id !== merchantId)
      throw new HostpayError('NOT_FOUND', `checkout ${checkoutId} does not exist`);
    const [loaded] = await loadCheckouts(trx, [row]);
    return loaded!;
  }

  /** The refundable amount, or the refusal: 409 for a checkout that took no money, 422 over what is left. */
  async function checkAmount(trx: Db, c: LoadedCheckout, asked: Decimal | null) {
    const r = refundability(c, await deps.refundedSoFar(trx, c.row.id));
    if (!r.ok) throw new HostpayError('CHECKOUT_STATE_CONFLICT', r.why, { status: c.row.status });
    const amount = asked ?? r.refundable;
    if (amount.lte(0) || amount.gt(r.refundable))
      throw new HostpayError(
        'REFUND_TOO_LARGE',
        `${r.refundable.lte(0) ? 'nothing is left to refund' : `at most ${decimalText(r.refundable)} ${r.target.asset} can still be refunded`} of checkout ${c.row.id}: it received ${decimalText(r.target.received)} ${r.target.asset} on ${r.target.chain}, minus earlier refunds`,
        {
          refundable: num(r.refundable),
          received: num(r.target.received),
          asset: r.target.asset,
          chain: r.target.chain,
        },
      );
    return { target: r.target, amount };
  }

  /**
   * The refund itself, inside the caller's write transaction: the checkout row locked first, then
   * the merchant's event counter, then the wallet (the lock order of checkouts/states.ts). A
   * checkout whose money was never credited (in review, rejected) has the refund's total credited
   * in the same transaction, so the wallet is unchanged net; then the payout is requested, the
   * checkout's timeline gets its entry and `refund.requested` is written.
   */
  async function refundIn(
    trx: Db,
    c: LoadedCheckout,
    target: RefundTarget,
    amount: Decimal,
    destination: string,
    source: RefundSource,
    when: string,
  ) {
    const payouts = payoutsPort();
    const merchantId = c.row.merchant_id;
    await lockEventCounter(trx, merchantId, store.dialect);
    const payoutId = newId('po');
    if (UNCREDITED_STATUSES.has(c.row.status)) {
      const total = amount.plus(await payouts.networkFee(trx, target.assetId, target.chainId));
      const { posting, walletId } = await creditInTransaction(trx, store.dialect, {
        merchantId,
        assetId: target.assetId,
        chainId: target.chainId,
        amount: total,
        // Keyed by the payout: if the refund is given up, its final move debits this credit back.
        idempotencyKey: refundCreditKey(payoutId),
        at: when,
      });
      await deps.outbox.append(
        trx,
        merchantId,
        'wallet.balance_changed',
        balanceChangedJson(walletId, posting, { checkoutId: c.row.id }),
        when,
        c.row.id,
      );
    }
    const payout = await payouts.request(trx, {
      merchantId,
      assetId: target.assetId,
      chainId: target.chainId,
      amount,
      destination,
      source,
      refundOf: c.row.id,
      payoutId,
      at: when,
    });
    await appendTimeline(trx, c.row.id, c.timeline.length, REFUND_TIMELINE_STATUS, null, when);
    await deps.outbox.append(trx, merchantId, 'refund.requested', payout.json, when, c.row.id);
    return payout;
  }

  async function committed<T>(merchantId: string, fn: (trx: Db) => Promise<T>): Promise<T> {
    const result = await store.writeTransaction(fn);
    await deps.caches.invalidate({ kind: 'wallets', merchantId });
    return result;
  }

  /**
   * POST …/refund-link: a link the payer opens to give the address; nothing is frozen until the
   * payer submits. With `sendEmail` the link is mailed to the payer in the transaction that makes it.
   */
  async function createLink(merchantId: string, checkoutId: string, asked: Decimal | null, ask: RefundMailAsk = {}) {
    const given = givenAddress(ask);
    const c = await loadOwned(db, merchantId, checkoutId, false);
    const { target, amount } = await checkAmount(db, c, asked);
    const to = mailTarget(ask, given, c.row);
    const token = newCapabilityToken();
    const createdAt = at();
    const row: RefundLinkRow = {
      id: newId('rfl'),
      token_hash: capabilityHash(token),
      checkout_id: checkoutId,
      merchant_id: merchantId,
      amount: asked === null ? null : decimalText(asked),
      expires_at: new Date(deps.now() + REFUND_LINK_TTL_MS).toISOString(),
      used_at: null,
      payout_id: null,
      created_at: createdAt,
    };
    const url = `${deps.publicBaseUrl()}${refundLinkPath(checkoutId, token)}`;
    await store.writeTransaction(async (trx) => {
      await insertRefundLink(trx, row);
      if (to === null) return;
      const chain = await chainFacts(trx, target.assetId, target.chainId);
      const mail = {
        merchantId,
        to,
        checkoutId,
        amount: decimalText(amount),
        fixed: asked !== null,
        asset: target.asset,
        network: chain?.network ?? chain?.name ?? target.chain,
        url,
        expiresAt: row.expires_at,
        at: createdAt,
      };
      await recordRefundLinkMail(trx, mail, deps.box);
    });
    return {
      id: row.id,
      checkoutId,
      url,
      amount: asked === null ? null : num(asked),
      asset: target.asset,
      chain: target.chain,
      expiresAt: row.expires_at,
      createdAt,
    };
  }

  /** POST …/refunds: with a destination, the refund (a payout with refundOf); without, a refund link. */
  async function refund(
    merchantId: string,
    checkoutId: string,
    amount: Decimal,
    destination: string | undefined,
    ask: RefundMailAsk = {},
  ) {
    if (destination === undefined)
      return { kind: 'link' as const, link: await createLink(merchantId, checkoutId, amount, ask) };
    if (ask.sendEmail === true || ask.customerEmail !== undefined)
      throw new HostpayError(
        'INVALID_BODY',
        'sendEmail mails a refund link; a refund with a destination has none: leave out destination to mail the payer a link, or leave out sendEmail',
        { field: 'sendEmail' },
      );
    const payouts = payoutsPort();
    const json = await committed(merchantId, async (trx) => {
      const c = await loadOwned(trx, merchantId, checkoutId, true);
      const checked = await checkAmount(trx, c, amount);
      const address = await payouts.checkAddress(trx, checked.target.chainId, destination);
      return (await refundIn(trx, c, checked.target, checked.amount, address, 'merchant', at())).json;
    });
    return { kind: 'payout' as const, json };
  }

  async function linkOf(trx: Db, checkoutId: string, token: string, lock: boolean) {
    if (!isCapabilityShaped(token) || !checkoutId.startsWith('chk_')) return undefined;
    return findRefundLink(trx, checkoutId, capabilityHash(token), lock ? store.dialect : undefined);
  }

  async function factsOf(trx: Db, link: RefundLinkRow, c: LoadedCheckout, target: RefundTarget): Promise<RefundFacts> {
    const [name, chain] = await Promise.all([
      merchantName(trx, link.merchant_id),
      chainFacts(trx, target.assetId, target.chainId),
    ]);
    return {
      checkoutId: c.row.id,
      merchantId: link.merchant_id,
      merchantName: name ?? '',
      asset: target.asset,
      chain: target.chain,
      chainName: chain?.name ?? target.chain,
      network: chain?.network ?? chain?.name ?? target.chain,
      family: chain?.family ?? '',
      networkType: chain?.network_type ?? 'mainnet',
      expiresAt: link.expires_at,
    };
  }

  /** The page's state for this link (GET, and a POST's starting point). */
  async function pageIn(trx: Db, checkoutId: string, token: string, lock: boolean) {
    const link = await linkOf(trx, checkoutId, token, lock);
    if (link === undefined) return { page: { kind: 'not_found' } as RefundPage };
    const c = await loadOwned(trx, link.merchant_id, checkoutId, lock);
    const r = refundability(c, await deps.refundedSoFar(trx, checkoutId));
    if (!r.ok) return { page: { kind: 'not_found' } as RefundPage };
    const facts = await factsOf(trx, link, c, r.target);
    let page: RefundPage;
    if (link.used_at !== null) page = { ...facts, kind: 'used', usedAt: link.used_at };
    else if (Date.parse(link.expires_at) <= deps.now()) page = { ...facts, kind: 'expired' };
    else {
      const amount = link.amount === null ? r.refundable : new Decimal(link.amount);
      page =
        r.refundable.lte(0) || amount.gt(r.refundable)
          ? { ...facts, kind: 'nothing_left' }
          : { ...facts, kind: 'form', amount: decimalText(amount) };
    }
    return { page, link, checkout: c, target: r.target };
  }

  /** GET /pay/{id}/refund/{token}. */
  const page = async (checkoutId: string, token: string): Promise<RefundPage> =>
    (await pageIn(db, checkoutId, token, false)).page;

  /**
   * POST /pay/{id}/refund/{token} with the payer's address: validated for the chain first (a
   * wrong address leaves the link usable), then, in one transaction with the link locked, the
   * refund and the link marked used by it. A payer's address skips the cooling-off of the
   * merchant's address book; the payouts' approval rules still apply.
   */
  async function submit(
    checkoutId: string,
    token: string,
    address: string,
  ): Promise<{ page: RefundPage; error?: HostpayError; requested?: { address: string; amount: string } }> {
    const payouts = payoutsPort();
    const before = await pageIn(db, checkoutId, token, false);
    if (before.page.kind !== 'form') return { page: before.page };
    let checked: string;
    try {
      checked = await payouts.checkAddress(db, before.target!.chainId, address.trim());
    } catch (err) {
      if (err instanceof HostpayError && err.code === 'INVALID_ADDRESS') return { page: before.page, error: err };
      throw err;
    }
    const merchantId = before.link!.merchant_id;
    return committed(merchantId, async (trx) => {
      const now = await pageIn(trx, checkoutId, token, true);
      if (now.page.kind !== 'form') return { page: now.page };
      const amount = new Decimal(now.page.amount);
      const payout = await refundIn(trx, now.checkout!, now.target!, amount, checked, 'payer', at());
      if (!(await useRefundLink(trx, now.link!.id, payout.id, at())))
        throw new Error(`refund link ${now.link!.id} was used inside the transaction that holds it`);
      return { page: now.page, requested: { address: checked, amount: now.page.amount } };
    });
  }

  /** GET …/refunds: the checkout's money and its refunds, as exact JSON (money.ts). */
  const money = (merchantId: string, checkoutId: string) => checkoutMoney(db, merchantId, checkoutId);

  return { createLink, refund, page, submit, money };
}

export type RefundService = ReturnType<typeof refundService>;

/** A refund link as the merchant API answers it. */
export type RefundLinkView = Awaited<ReturnType<RefundService['createLink']>>;

export const refundLinkJson = (link: RefundLinkView) => writeExactJson(link);
