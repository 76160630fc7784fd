import { darkAccent } from '../../self-service/brand.js';

/** What the pages show when a merchant set only one of its two colours: the default palette's. */
export const DEFAULT_BRAND = '#0b57d0';
export const DEFAULT_ACCENT = '#0b57d0';

/**
 * A merchant's palette over the page stylesheet (page-css.ts), served as a file of its own so the
 * pages' CSP stays `style-src 'self'` with nothing inline. The brand colour fills the buttons (white
 * text, in both schemes: a button brings its own background) and a decorative band along the top;
 * the accent colours links and focus rings, replaced in dark mode by its nearest shade that is
 * legible on the dark grounds (self-service/brand.ts).
 */
export function brandCss(brand: string, accent: string): string {
  return [
    `:root{--brand:${brand};--accent:${accent};--accent-fg:#fff}`,
    `@media (prefers-color-scheme:dark){:root{--accent:${darkAccent(accent)}}}`,
    'body{border-top:6px solid var(--brand)}',
    'button{background:var(--brand);color:#fff}',
  ].join('\n');
}
