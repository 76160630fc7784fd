import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { LANGUAGES, type Lang } from '../../src/i18n/languages.js';
import { axeViolations } from './axe.js';
import { PHONE } from './public-page.js';

export interface LanguageFacts {
  lang: Lang;
  /** The page's visible text, for comparing languages. */
  text: string;
}

/**
 * Opens `url` with `?lang=` set to every language (in a 360 px context) and holds each to the
 * public pages' language standards (issue 48): `<html lang dir>` as chosen (Arabic right to
 * left), no placeholder left unfilled (`{…}` or an ICU `#`-less brace in the visible text), no
 * text wider than the phone (no horizontal scrolling, no element past either edge), the picker
 * naming the language chosen, and axe at zero violations. It returns each language's visible text;
 * a non-English page that reads like the English one has a message left untranslated.
 */
export async function checkEveryLanguage(page: Page, url: string, what: string): Promise<LanguageFacts[]> {
  const facts: LanguageFacts[] = [];
  for (const { code, dir } of LANGUAGES) {
    const u = new URL(url);
    u.searchParams.set('lang', code);
    const res = await page.goto(u.href, { waitUntil: 'load' });
    const label = `${what} in ${code}`;
    expect(res?.status(), label).toBeLessThan(500);
    const doc = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      text: document.body.innerText,
      width: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      // Elements whose box sticks out of the viewport on either side (text that does not wrap).
      outside: Array.from(document.querySelectorAll('body *'))
        .filter((el) => {
          const r = el.getBoundingClientRect();
          const visible = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
          return visible && (r.right > document.documentElement.clientWidth + 1 || r.left < -1);
        })
        .filter((el) => !el.closest('.vh,[hidden],details:not([open]) ul'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${(el.textContent ?? '').slice(0, 40)}`),
      picker: document.querySelector('nav.lang summary')?.textContent ?? null,
    }));
    expect(doc.lang, label).toBe(code);
    expect(doc.dir, label).toBe(dir);
    expect(doc.text, `${label}: an unfilled placeholder`).not.toMatch(/\{[\w ,]*\}|\{\w+, (plural|select)/);
    expect(doc.width, `${label}: width at ${PHONE.width} px`).toBeLessThanOrEqual(PHONE.width);
    expect(doc.outside, `${label}: text past the edge at ${PHONE.width} px`).toEqual([]);
    expect(doc.picker, `${label}: the picker`).toContain(LANGUAGES.find((l) => l.code === code)!.name);
    expect(await axeViolations(page), label).toEqual([]);
    facts.push({ lang: code, text: doc.text });
  }
  const english = facts.find((f) => f.lang === 'en')!.text;
  for (const f of facts)
    if (f.lang !== 'en') expect(f.text, `${what} in ${f.lang} reads as the English page`).not.toBe(english);
  return facts;
}
