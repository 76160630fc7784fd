import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/i18n/catalogues/index.js';
import { LANG_CODES } from '../../src/i18n/languages.js';
import { translate } from '../../src/i18n/messages.js';

type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }>; children?: Node[] };

/** The placeholders a message reads (arguments, plurals, selects), and its plural/select arguments. */
function placeholders(message: string, lang: string): string[] {
  const ast = new IntlMessageFormat(message, lang, undefined, { ignoreTag: true }).getAst() as Node[];
  const out = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      // 0 literal, 7 pound: no argument of their own.
      if (n.type !== 0 && n.type !== 7 && typeof n.value === 'string') out.add(n.value);
      for (const o of Object.values(n.options ?? {})) walk(o.value);
      if (n.children) walk(n.children);
    }
  };
  walk(ast);
  return [...out].sort();
}

/** The select arguments of a message (type 5), with their cases: the value picks words, it is not shown. */
function selects(message: string): Map<string, string[]> {
  const ast = new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).getAst() as Node[];
  const out = new Map<string, string[]>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if (n.type === 5 && typeof n.value === 'string') out.set(n.value, Object.keys(n.options ?? {}));
      for (const o of Object.values(n.options ?? {})) walk(o.value);
    }
  };
  walk(ast);
  return out;
}

/** Sample values for every placeholder: a number for plurals, text otherwise. */
function sample(names: string[]): Record<string, string | number> {
  return Object.fromEntries(
    names.map((n) => [n, /count|^n$|seconds|minutes|days|hours|items|uses/i.test(n) ? 2 : `«${n}»`]),
  );
}

const en = CATALOGUES.en;
const KEYS = Object.keys(en).sort();
/** Messages that are the same in every language: a brand or a code, no words to translate. */
const SAME_EVERYWHERE = /^[\s\p{P}\p{S}\d{}#a-z_]*$|hostpay|^[A-Z0-9 :./·{}_-]+$/u;

describe('message catalogues', () => {
  it('English has messages, each namespaced by its page family', () => {
    expect(KEYS.length).toBeGreaterThan(3);
    for (const k of KEYS) expect(k, k).toMatch(/^(common|pay|refund|link|invoice|receipt|mail)\.[A-Za-z0-9.]+$/);
  });

  for (const lang of LANG_CODES) {
    describe(lang, () => {
      const catalogue = CATALOGUES[lang];
      it('has exactly the English keys', () => {
        expect(Object.keys(catalogue).sort()).toEqual(KEYS);
      });
      it('each message parses as ICU and reads the same placeholders as English', () => {
        for (const key of KEYS) {
          const message = catalogue[key as keyof typeof catalogue];
          expect(typeof message, `${lang} ${key}`).toBe('string');
          expect(message.trim(), `${lang} ${key}`).not.toBe('');
          expect(placeholders(message, lang), `${lang} ${key}`).toEqual(placeholders(en[key as keyof typeof en], 'en'));
        }
      });
      it('formats every message with no placeholder left unfilled', () => {
        for (const key of KEYS) {
          const names = placeholders(en[key as keyof typeof en], 'en');
          const chosen = selects(en[key as keyof typeof en]);
          // Each case of each select (and a value no case names), the other arguments as samples.
          const variants = [...chosen].flatMap(([arg, cases]) => [...cases, 'zz-none'].map((c) => ({ [arg]: c })));
          const outs = (variants.length > 0 ? variants : [{}]).map((variant) => {
            const out = translate(lang, key as keyof typeof en, { ...sample(names), ...variant });
            expect(out, `${lang} ${key} ${JSON.stringify(variant)}`).not.toMatch(/[{}]/);
            return out;
          });
          // An argument inside one case of a select shows in that case only: in some output, then.
          for (const n of names)
            if (!chosen.has(n) && !/count|^n$|seconds|minutes|days|hours|items|uses/i.test(n))
              expect(outs.join('\n'), `${lang} ${key}`).toContain(`«${n}»`);
        }
      });
      if (lang !== 'en')
        it('is translated: no English sentence is left in it', () => {
          const left = KEYS.filter((key) => {
            const m = catalogue[key as keyof typeof catalogue];
            return m === en[key as keyof typeof en] && !SAME_EVERYWHERE.test(m);
          });
          expect(left, `${lang}: messages still in English`).toEqual([]);
        });
    });
  }
});
