import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PAGE_CSS } from '../../src/features/pay/assets/page-css.js';
import {
  AA,
  colourRefusal,
  contrast,
  DARK_GROUNDS,
  darkAccent,
  fromHsl,
  LIGHT_GROUNDS,
  luminance,
  nearestPassing,
  normalHex,
  ratioText,
  toHsl,
  WHITE,
  worstContrast,
} from '../../src/features/self-service/brand.js';

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map(([r, g, b]) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`);
const groundSets = fc.constantFrom<readonly string[]>([WHITE], LIGHT_GROUNDS, DARK_GROUNDS);

describe('WCAG 2.x contrast', () => {
  it('matches the published values', () => {
    expect(luminance('#ffffff')).toBe(1);
    expect(luminance('#000000')).toBe(0);
    expect(contrast('#000000', '#ffffff')).toBe(21);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    // #767676 is the lightest grey that passes AA on white (4.54:1); #777777 is just under.
    expect(ratioText(contrast('#767676', WHITE))).toBe('4.54');
    expect(contrast('#777777', WHITE)).toBeLessThan(AA);
    expect(ratioText(contrast('#ffd700', WHITE))).toBe('1.40');
  });

  it('writes a failing ratio cut, never rounded up to a passing one', () => {
    expect(ratioText(4.4999)).toBe('4.49');
    expect(ratioText(4.5)).toBe('4.50');
  });

  it('normalises #rgb and #rrggbb to lowercase #rrggbb and refuses anything else', () => {
    expect(normalHex('#ABC')).toBe('#aabbcc');
    expect(normalHex('#0B57D0')).toBe('#0b57d0');
    for (const v of ['abc', '#abcd', '#ggg', 'red', '#12345', '', '#1234567', 'rgb(0,0,0)'])
      expect(normalHex(v)).toBeNull();
  });

  it('keeps its grounds in step with the page stylesheet', () => {
    for (const g of [...LIGHT_GROUNDS, ...DARK_GROUNDS]) {
      const short = g === WHITE ? '#fff' : g;
      expect(PAGE_CSS.includes(`:${short};`) || PAGE_CSS.includes(`:${short}}`), g).toBe(true);
    }
  });

  it('round-trips colours through HSL', () => {
    fc.assert(
      fc.property(hex, (h) => {
        expect(fromHsl(toHsl(h))).toBe(h);
      }),
    );
  });
});

describe('the nearest passing shade', () => {
  it('always passes on every ground it was asked for', () => {
    fc.assert(
      fc.property(hex, groundSets, (h, grounds) => {
        expect(worstContrast(nearestPassing(h, grounds), grounds).ratio).toBeGreaterThanOrEqual(AA);
      }),
    );
  });

  it('is the colour itself when it passes, else no shade of its hue nearer in lightness passes', () => {
    fc.assert(
      fc.property(hex, groundSets, (h, grounds) => {
        const shade = nearestPassing(h, grounds);
        if (worstContrast(h, grounds).ratio >= AA) {
          expect(shade).toBe(h);
          return;
        }
        const from = toHsl(h);
        const distance = Math.abs(toHsl(shade).l - from.l);
        // An independent, finer walk: everything clearly nearer (by more than the hex rounding) fails.
        for (let l = 0; l <= 1; l += 0.0005) {
          if (Math.abs(l - from.l) >= distance - 0.004) continue;
          expect(worstContrast(fromHsl({ ...from, l }), grounds).ratio).toBeLessThan(AA);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the hue of a saturated colour', () => {
    fc.assert(
      fc.property(hex, (h) => {
        const from = toHsl(h);
        fc.pre(from.s > 0.3 && from.l > 0.15 && from.l < 0.85);
        const to = toHsl(nearestPassing(h, [WHITE]));
        fc.pre(to.l > 0.1);
        const turn = Math.abs(to.h - from.h);
        expect(Math.min(turn, 360 - turn)).toBeLessThan(6);
      }),
    );
  });

  it('gives a dark-mode accent legible on every dark ground', () => {
    fc.assert(
      fc.property(hex, (h) => {
        expect(worstContrast(darkAccent(h), DARK_GROUNDS).ratio).toBeGreaterThanOrEqual(AA);
      }),
    );
  });
});

describe('the refusal message', () => {
  it('says the measured ratio and a shade that passes', () => {
    const m = colourRefusal('brandColor', '#ffd700');
    expect(m).toMatch(
      /^brandColor #ffd700 has contrast 1\.40:1 with white text; WCAG AA needs 4\.5:1: try #[0-9a-f]{6}$/,
    );
    const suggested = m?.slice(-7) as string;
    expect(contrast(suggested, WHITE)).toBeGreaterThanOrEqual(AA);
    expect(colourRefusal('brandColor', suggested)).toBeNull();
  });

  it('names the light ground an accent fails on', () => {
    expect(colourRefusal('accentColor', '#ffd700')).toMatch(
      /^accentColor #ffd700 has contrast 1\.\d\d:1 as link text on the page's light background #[0-9a-f]{6}; WCAG AA needs 4\.5:1: try #[0-9a-f]{6}$/,
    );
    expect(colourRefusal('accentColor', '#0b57d0')).toBeNull();
  });

  it('accepts exactly the colours that pass', () => {
    fc.assert(
      fc.property(hex, (h) => {
        expect(colourRefusal('brandColor', h) === null).toBe(contrast(h, WHITE) >= AA);
        expect(colourRefusal('accentColor', h) === null).toBe(worstContrast(h, LIGHT_GROUNDS).ratio >= AA);
      }),
    );
  });
});
