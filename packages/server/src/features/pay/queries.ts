import { brandOf, type Brand } from '../self-service/look.js';
import type { Db } from '../../store/store.js';

/** What the page shows beyond the checkout view: who is paid, and how each option's URI is spelled. */
export interface PageFacts {
  /** The merchant's display name (dashboard settings), else its name. */
  merchantName: string;
  /** The merchant's logo (an https URL or a data:image URL, checked when set), or null. */
  logoUrl: string | null;
  /** The merchant's colours (null: the default palette) and default language (settings). */
  brand: Brand | null;
  language: string | null;
  /** The checkout's currency is fiat (a catalog asset that is not crypto, or one the catalog does not hold). */
  fiatCurrency: boolean;
  /** By `ASSET/CHAIN`. */
  options: Map<string, { decimals: number; family: string; networkType: string }>;
  /** Each chain's block-explorer link template (`{tx}`), by chain symbol; absent: no link. */
  explorers: Map<string, string>;
}

export async function pageFacts(db: Db, checkoutId: string): Promise<PageFacts | undefined> {
  const [checkout, options] = await Promise.all([
    db
      .selectFrom('checkouts as k')
      .innerJoin('merchants as m', 'm.id', 'k.merchant_id')
      .leftJoin('assets as a', 'a.symbol', 'k.currency')
      .select([
        'm.name',
        'm.display_name',
        'm.logo_url',
        'm.brand_color',
        'm.accent_color',
        'm.default_language',
        'a.is_crypto',
      ])
      .where('k.id', '=', checkoutId)
      .executeTakeFirst(),
    db
      .selectFrom('checkout_options as o')
      .innerJoin('assets as a', 'a.id', 'o.asset_id')
      .innerJoin('chains as c', 'c.id', 'o.chain_id')
      .select(['a.symbol as asset', 'a.decimals', 'c.symbol as chain', 'c.family', 'c.network_type'])
      .where('o.checkout_id', '=', checkoutId)
      .execute(),
  ]);
  if (checkout === undefined) return undefined;
  // Payments may arrive on chains the checkout did not offer (a wrong asset): every chain's link.
  const explorers = await db
    .selectFrom('chains')
    .select(['symbol', 'explorer_tx_url'])
    .where('explorer_tx_url', 'is not', null)
    .execute();
  return {
    merchantName: checkout.display_name ?? checkout.name,
    logoUrl: checkout.logo_url,
    brand: brandOf({ brandColor: checkout.brand_color, accentColor: checkout.accent_color }),
    language: checkout.default_language,
    fiatCurrency: checkout.is_crypto !== 1,
    options: new Map(
      options.map((o) => [
        `${o.asset}/${o.chain}`,
        { decimals: o.decimals, family: o.family, networkType: o.network_type },
      ]),
    ),
    explorers: new Map(explorers.flatMap((e) => (e.explorer_tx_url === null ? [] : [[e.symbol, e.explorer_tx_url]]))),
  };
}
