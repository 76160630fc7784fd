import type { Caches } from '../../cache/caches.js';
import { isLang, type Lang } from '../../i18n/languages.js';
import type { Db } from '../../store/store.js';

/** The cache scope a settings change invalidates (with the merchant's id: only its entry goes). */
export const LOOK_SCOPE = 'merchant-look';

/** How a merchant's public pages look and speak by default (settings: colours and language). */
export interface MerchantLook {
  language: Lang | null;
  brandColor: string | null;
  accentColor: string | null;
}

/** The layout's `brand` input: the two colours, or null when the merchant set neither (the default palette). */
export interface Brand {
  brandColor: string | null;
  accentColor: string | null;
}
export const brandOf = (look: Pick<MerchantLook, 'brandColor' | 'accentColor'>): Brand | null =>
  look.brandColor === null && look.accentColor === null
    ? null
    : { brandColor: look.brandColor, accentColor: look.accentColor };

const NONE: MerchantLook = Object.freeze({ language: null, brandColor: null, accentColor: null });

export type MerchantLookup = (merchantId: string) => Promise<MerchantLook>;

/**
 * Every public page reads its merchant's look: kept per merchant and dropped exactly when that
 * merchant's settings change (settings.ts invalidates LOOK_SCOPE with its id), or when another
 * instance writes (the caches' usual resync). An unknown merchant looks like one without settings.
 */
export function merchantLook(db: Db, caches: Caches): MerchantLookup {
  const cache = caches.facts<MerchantLook>([LOOK_SCOPE], { merchantKeyed: true });
  const load = async (merchantId: string): Promise<MerchantLook> => {
    const row = await db
      .selectFrom('merchants')
      .select(['brand_color', 'accent_color', 'default_language'])
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (row === undefined) return NONE;
    return {
      language: isLang(row.default_language) ? row.default_language : null,
      brandColor: row.brand_color,
      accentColor: row.accent_color,
    };
  };
  return async (merchantId) => caches.through(cache.map, merchantId, () => load(merchantId));
}
