import { createHash } from 'node:crypto';
import { PAGE_CSS } from './assets/page-css.js';
import { PAGE_JS } from './assets/page-js.js';
import { LRUCache } from 'lru-cache';
import { brandAccepted } from '../self-service/brand.js';
import { brandCss, DEFAULT_ACCENT, DEFAULT_BRAND } from './assets/brand-css.js';

export interface Asset {
  /** URL path: /pay/assets/pay-<first 12 hex of its SHA-256>.<ext>. */
  path: string;
  type: string;
  body: string;
  /** Subresource integrity value (sha384) for the tag that loads it. */
  integrity: string;
}

export const ASSET_PREFIX = '/pay/assets/';

function asset(ext: string, type: string, body: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    path: `${ASSET_PREFIX}pay-${hash}.${ext}`,
    type,
    body,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  };
}

/**
 * The page's CSS and script under names that change with their content, so they can be cached
 * for a year (`immutable`) and a new release is fetched at once.
 */
export const ASSETS = {
  css: asset('css', 'text/css; charset=utf-8', PAGE_CSS),
  js: asset('js', 'text/javascript; charset=utf-8', PAGE_JS),
};

const BY_NAME = new Map(Object.values(ASSETS).map((a) => [a.path.slice(ASSET_PREFIX.length), a]));

const BRAND_NAME = /^brand-([0-9a-f]{6})-([0-9a-f]{6})\.css$/;
// Made on first use: a name is only as many as merchants' palettes, but anyone may ask for one.
const BRANDS = new LRUCache<string, Asset>({ max: 1000 });

/**
 * The stylesheet of one palette, /pay/assets/brand-<brand>-<accent>.css (colours without `#`):
 * named by its colours, so it is as immutable as the hashed files. Only palettes settings would
 * accept exist; anything else is undefined (404).
 */
export function brandAsset(brand: string, accent: string): Asset | undefined {
  const name = `brand-${brand.slice(1)}-${accent.slice(1)}.css`;
  const known = BRANDS.get(name);
  if (known !== undefined) return known;
  if (!brandAccepted(brand, accent)) return undefined;
  const made = { ...asset('css', 'text/css; charset=utf-8', brandCss(brand, accent)), path: `${ASSET_PREFIX}${name}` };
  BRANDS.set(name, made);
  return made;
}

/** The layout's link for a merchant's colours; a colour left unset is the default palette's. */
export const brandStylesheet = (b: { brandColor: string | null; accentColor: string | null }) =>
  brandAsset(b.brandColor ?? DEFAULT_BRAND, b.accentColor ?? DEFAULT_ACCENT);

export const assetNamed = (name: string): Asset | undefined => {
  const brand = BRAND_NAME.exec(name);
  return brand === null ? BY_NAME.get(name) : brandAsset(`#${brand[1]}`, `#${brand[2]}`);
};
