import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandAsset, brandStylesheet } from '../../src/features/pay/assets.js';
import { DEFAULT_ACCENT } from '../../src/features/pay/assets/brand-css.js';
import { layout } from '../../src/features/pay/templates/layout.js';
import { html } from '../../src/features/pay/html.js';
import { darkAccent } from '../../src/features/self-service/brand.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';

/**
 * The palette stylesheet: /pay/assets/brand-<brand>-<accent>.css exists only for colours settings
 * accept (lowercase hex that passes AA), cached for a year, and linked (with its integrity) by the
 * layout only when the merchant has colours.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
});
afterAll(() => fx.close());

const get = (file: string) => fx.app.inject({ method: 'GET', url: `/pay/assets/${file}` });

describe('the brand stylesheet route', () => {
  it('serves a passing palette, immutable for a year, light and dark', async () => {
    const res = await get('brand-8b7500-003366.css');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.body).toContain(':root{--brand:#8b7500;--accent:#003366;--accent-fg:#fff}');
    expect(res.body).toContain(`@media (prefers-color-scheme:dark){:root{--accent:${darkAccent('#003366')}}}`);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('404s bad and failing colours', async () => {
    for (const file of [
      'brand-ffd700-003366.css', // brand fails with white text
      'brand-8b7500-ffffff.css', // accent fails on the light grounds
      'brand-8B7500-003366.css', // not lowercase
      'brand-8b75-003366.css',
      'brand-8b7500-003366.js',
      'brand-8b7500-003366-000000.css',
      'brand-zzzzzz-003366.css',
    ]) {
      const res = await get(file);
      expect(res.statusCode, file).toBe(404);
      expect(String(res.headers['cache-control']), file).not.toContain('immutable');
    }
  });
});

describe('the layout link', () => {
  const page = (brand?: { brandColor: string | null; accentColor: string | null } | null) =>
    layout({ title: 't', sandbox: false, status: 'open', body: html`<main></main>`, brand }).text;

  it('links the palette with its integrity only when the merchant has colours', () => {
    expect(page()).not.toContain('brand-');
    expect(page(null)).not.toContain('brand-');
    const linked = page({ brandColor: '#8b7500', accentColor: null });
    const sheet = brandAsset('#8b7500', DEFAULT_ACCENT);
    expect(sheet).toBeDefined();
    expect(linked).toContain(`<link rel="stylesheet" href="${sheet?.path}" integrity="${sheet?.integrity}">`);
    expect(sheet?.path).toBe('/pay/assets/brand-8b7500-0b57d0.css');
  });

  it('a stored colour that no longer passes gives the default palette, not an illegible page', () => {
    expect(brandStylesheet({ brandColor: '#ffd700', accentColor: null })).toBeUndefined();
    expect(page({ brandColor: '#ffd700', accentColor: null })).not.toContain('brand-');
  });
});
