/**
 * A merchant's two page colours and the WCAG 2.x contrast rule they must meet (docs/payment-page.md,
 * "Branding"). Where each colour goes decides what it must be legible against:
 *
 * - `brandColor` fills the public pages' buttons, which carry white text (in light and dark mode
 *   alike: a button brings its own background), and a thin decorative band along the top. It must
 *   reach 4.5:1 against white.
 * - `accentColor` is the colour of links, focus rings and the chosen option's outline. In light mode
 *   links sit on the card, the page and the tinted state boxes (LIGHT_GROUNDS): it must reach
 *   4.5:1 on every one. Dark mode needs a light colour, so the pages use `darkAccent`: the nearest
 *   shade of the same hue that reaches 4.5:1 on every dark ground (DARK_GROUNDS).
 */

/** WCAG AA for normal text. */
export const AA = 4.5;
/** The page's own light backgrounds that links are drawn on (pay/assets/page-css.ts: --card, --bg, the state tints). */
export const LIGHT_GROUNDS = ['#ffffff', '#f4f5f7', '#e3edfc', '#e3f4e8', '#fff2d6', '#fde7e8'] as const;
/** The same in dark mode. */
export const DARK_GROUNDS = ['#181b21', '#0f1115', '#132a4d', '#173322', '#3a2c0c', '#3d1518'] as const;
export const WHITE = '#ffffff';

/** `#rgb` or `#rrggbb` (any case) as lowercase `#rrggbb`, else null. */
export function normalHex(v: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v.trim());
  if (m === null) return null;
  const h = (m[1] as string).toLowerCase();
  return h.length === 3 ? `#${[...h].map((c) => c + c).join('')}` : `#${h}`;
}

const channels = (hex: string): [number, number, number] => [
  Number.parseInt(hex.slice(1, 3), 16),
  Number.parseInt(hex.slice(3, 5), 16),
  Number.parseInt(hex.slice(5, 7), 16),
];

/** WCAG 2.x relative luminance of a lowercase `#rrggbb`. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio of two colours (1 to 21, order free). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The lowest ratio of `hex` against `grounds`, and the ground it is measured on. */
export function worstContrast(hex: string, grounds: readonly string[]): { ratio: number; ground: string } {
  let worst = { ratio: Infinity, ground: grounds[0] as string };
  for (const g of grounds) {
    const ratio = contrast(hex, g);
    if (ratio < worst.ratio) worst = { ratio, ground: g };
  }
  return worst;
}

export interface Hsl {
  h: number;
  s: number;
  l: number;
}

export function toHsl(hex: string): Hsl {
  const [r, g, b] = channels(hex).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return { h: h * 60, s, l };
}

export function fromHsl({ h, s, l }: Hsl): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  const byte = (v: number) =>
    Math.round(Math.min(1, Math.max(0, v + m)) * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${byte(r)}${byte(g)}${byte(b)}`;
}

/** Lightness steps the search walks (0.1 % each). */
export const LIGHTNESS_STEPS = 1000;

/**
 * The shade of `hex` (same hue and saturation) whose HSL lightness is nearest to its own and that
 * reaches `min` against every one of `grounds`; `hex` itself when it already does. Black or white
 * always end the walk on one side, so there is always an answer for grounds that are all light or
 * all dark.
 */
export function nearestPassing(hex: string, grounds: readonly string[], min = AA): string {
  if (worstContrast(hex, grounds).ratio >= min) return hex;
  const hsl = toHsl(hex);
  const at = (l: number) => fromHsl({ ...hsl, l: Math.min(1, Math.max(0, l)) });
  for (let k = 1; k <= LIGHTNESS_STEPS; k++) {
    for (const l of [hsl.l - k / LIGHTNESS_STEPS, hsl.l + k / LIGHTNESS_STEPS]) {
      if (l < 0 || l > 1) continue;
      const shade = at(l);
      if (worstContrast(shade, grounds).ratio >= min) return shade;
    }
  }
  return worstContrast('#000000', grounds).ratio >= worstContrast(WHITE, grounds).ratio ? '#000000' : WHITE;
}

/** A ratio as the message writes it: cut (never rounded up) to 2 decimals, so 4.496 reads 4.49, not 4.50. */
export const ratioText = (r: number) => (Math.floor(r * 100) / 100).toFixed(2);

/**
 * Why `hex` may not be used as `field`, or null: its contrast with what it carries, and the
 * nearest passing shade to try.
 */
export function colourRefusal(field: 'brandColor' | 'accentColor', hex: string): string | null {
  const brand = field === 'brandColor';
  const grounds = brand ? [WHITE] : LIGHT_GROUNDS;
  const worst = worstContrast(hex, grounds);
  if (worst.ratio >= AA) return null;
  const on = brand ? 'with white text' : `as link text on the page's light background ${worst.ground}`;
  return `${field} ${hex} has contrast ${ratioText(worst.ratio)}:1 ${on}; WCAG AA needs 4.5:1: try ${nearestPassing(hex, grounds)}`;
}

/** The accent the pages use in dark mode: the nearest shade that is legible on every dark ground. */
export const darkAccent = (accent: string) => nearestPassing(accent, DARK_GROUNDS);

/** Both colours are lowercase `#rrggbb` that pass (what settings accept). */
export const brandAccepted = (brand: string, accent: string) =>
  /^#[0-9a-f]{6}$/.test(brand) &&
  /^#[0-9a-f]{6}$/.test(accent) &&
  colourRefusal('brandColor', brand) === null &&
  colourRefusal('accentColor', accent) === null;
