import { createHash } from 'node:crypto';
import { PAGE_CSS } from './assets/page-css.js';
import { PAGE_JS } from './assets/page-js.js';

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

export const assetNamed = (name: string): Asset | undefined => BY_NAME.get(name);
