import type { Db } from '../../store/store.js';

/** What the page shows beyond the checkout view: who is paid, and how each option's URI is spelled. */
export interface PageFacts {
  merchantName: string;
  /** By `ASSET/CHAIN`. */
  options: Map<string, { decimals: number; family: string; networkType: string }>;
}

export async function pageFacts(db: Db, checkoutId: string): Promise<PageFacts | undefined> {
  const [merchant, options] = await Promise.all([
    db
      .selectFrom('checkouts as k')
      .innerJoin('merchants as m', 'm.id', 'k.merchant_id')
      .select('m.name')
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
  if (merchant === undefined) return undefined;
  return {
    merchantName: merchant.name,
    options: new Map(
      options.map((o) => [
        `${o.asset}/${o.chain}`,
        { decimals: o.decimals, family: o.family, networkType: o.network_type },
      ]),
    ),
  };
}
