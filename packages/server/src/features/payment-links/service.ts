import { brandOf } from '../self-service/look.js';
import { type CreatePaymentLinkBody, type UpdatePaymentLinkBody, writeExactJson } from '@hostpay/protocol';
import { randomBytes } from 'node:crypto';
import { page, type PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import { requireAssetRow } from '../catalog/queries.js';
import type { CheckoutService } from '../checkouts/service.js';
import type { Outbox } from '../events/outbox.js';
import { usedNoncePrune } from '../../http/public-form.js';
import { checkCreateLink, checkUpdateLink } from './input.js';
import { linkView, unavailable, type LinkView } from './view.js';
import { payLink, type PayInput } from './pay.js';
import { countsOf, NO_COUNTS } from './queries.js';
import type { PaymentLinkTable } from './tables.js';

export interface PaymentLinkServiceOptions {
  store: Store;
  outbox: Outbox;
  checkouts: CheckoutService;
  publicBaseUrl: () => string;
  sandbox: boolean;
  now?: () => number;
}

/** Payment links (spec/commerce.md, "Payment links"): the merchant's CRUD and the public page's create. */
export function paymentLinkService(opts: PaymentLinkServiceOptions) {
  const { store, outbox } = opts;
  const db = store.db;
  const now = opts.now ?? Date.now;
  const pruneSubmissions = usedNoncePrune(
    (before) => db.deleteFrom('payment_link_submissions').where('created_at', '<', before).execute(),
    now,
  );

  const viewOf = async (row: PaymentLinkTable, trx: Db = db): Promise<LinkView> =>
    linkView(row, (await countsOf(trx, [row.id])).get(row.id) ?? NO_COUNTS, opts.publicBaseUrl(), now());

  async function owned(merchantId: string, id: string, trx: Db = db): Promise<PaymentLinkTable> {
    const row = await trx
      .selectFrom('payment_links')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', merchantId)
      .executeTakeFirst();
    // Another merchant's link is "not found": its existence is not revealed.
    if (row === undefined) throw new HostpayError('NOT_FOUND', `payment link ${id} does not exist`);
    return row;
  }

  return {
    async create(merchantId: string, body: CreatePaymentLinkBody): Promise<string> {
      const asset = await requireAssetRow(db, body.currency);
      const columns = checkCreateLink(body, asset.decimals, opts.sandbox, now());
      const at = new Date(now()).toISOString();
      const row: PaymentLinkTable = {
        id: newId('plink'),
        merchant_id: merchantId,
        slug: randomBytes(16).toString('base64url'),
        ...columns,
        description: columns.description ?? null,
        amount: columns.amount ?? null,
        min_amount: columns.min_amount ?? null,
        max_amount: columns.max_amount ?? null,
        line_items: columns.line_items ?? null,
        payment_options: columns.payment_options ?? null,
        collect_email: columns.collect_email ?? 'none',
        success_url: columns.success_url ?? null,
        cancel_url: columns.cancel_url ?? null,
        max_uses: columns.max_uses ?? null,
        expires_at: columns.expires_at ?? null,
        active: columns.active ?? 1,
        metadata: columns.metadata ?? '{}',
        created_at: at,
        updated_at: at,
      };
      return store.writeTransaction(async (trx) => {
        await trx.insertInto('payment_links').values(row).execute();
        const json = writeExactJson(linkView(row, NO_COUNTS, opts.publicBaseUrl(), now()));
        await outbox.append(trx, merchantId, 'payment_link.created', json, at);
        return json;
      });
    },

    async get(merchantId: string, id: string): Promise<LinkView> {
      return viewOf(await owned(merchantId, id));
    },

    async list(merchantId: string, req: PageRequest, filter: { active?: boolean | undefined } = {}) {
      let q = db.selectFrom('payment_links').selectAll().where('merchant_id', '=', merchantId);
      if (filter.active !== undefined) q = q.where('active', '=', filter.active ? 1 : 0);
      const result = await page(q, 'created_at', req, (r) => r, 'desc');
      const counts = await countsOf(
        db,
        result.items.map((r) => r.id),
      );
      const base = opts.publicBaseUrl();
      return {
        items: result.items.map((r) => linkView(r, counts.get(r.id) ?? NO_COUNTS, base, now())),
        nextCursor: result.nextCursor,
      };
    },

    async update(merchantId: string, id: string, body: UpdatePaymentLinkBody): Promise<string> {
      const changes = checkUpdateLink(body, opts.sandbox, now());
      const at = new Date(now()).toISOString();
      return store.writeTransaction(async (trx) => {
        await owned(merchantId, id, trx);
        await trx
          .updateTable('payment_links')
          .set({ ...changes, updated_at: at })
          .where('id', '=', id)
          .execute();
        const json = writeExactJson(await viewOf(await owned(merchantId, id, trx), trx));
        await outbox.append(trx, merchantId, 'payment_link.updated', json, at);
        return json;
      });
    },

    /** The link's checkouts (a 404 for another merchant's link), newest first. */
    async checkoutsOf(merchantId: string, id: string, req: PageRequest) {
      await owned(merchantId, id);
      return opts.checkouts.listForMerchant(merchantId, { paymentLinkId: id }, req);
    },

    /** What the public page shows: the link, its merchant and whether it makes checkouts now. */
    async publicLink(slug: string) {
      const row = await db
        .selectFrom('payment_links as l')
        .innerJoin('merchants as m', 'm.id', 'l.merchant_id')
        .selectAll('l')
        .select([
          'm.name as merchant_name',
          'm.display_name',
          'm.logo_url',
          'm.default_language',
          'm.brand_color',
          'm.accent_color',
        ])
        .where('l.slug', '=', slug)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { merchant_name, display_name, logo_url, default_language, brand_color, accent_color, ...link } = row;
      const { taken } = (await countsOf(db, [link.id])).get(link.id) ?? NO_COUNTS;
      const asset = await requireAssetRow(db, link.currency);
      return {
        link: link as PaymentLinkTable,
        merchantName: display_name ?? merchant_name,
        logoUrl: logo_url,
        /** The merchant's default language and colours (settings), as the payment page takes them. */
        language: default_language,
        brand: brandOf({ brandColor: brand_color, accentColor: accent_color }),
        decimals: asset.decimals,
        /** A fiat currency is formatted in the payer's language; a crypto amount stays exact text. */
        fiat: asset.is_crypto === 0,
        reason: unavailable(link as PaymentLinkTable, taken, now()),
      };
    },

    /** The payer's submit: a checkout of the link, or the one this nonce already made. */
    async pay(input: PayInput) {
      await pruneSubmissions();
      return payLink(
        { store, checkouts: opts.checkouts, publicBaseUrl: opts.publicBaseUrl, sandbox: opts.sandbox, now },
        input,
      );
    },
  };
}

export type PaymentLinkService = ReturnType<typeof paymentLinkService>;
export type PublicLink = NonNullable<Awaited<ReturnType<PaymentLinkService['publicLink']>>>;
