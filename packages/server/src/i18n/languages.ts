/**
 * The languages a payer can read the public pages, their receipts and their mails in (each its
 * own catalogue under catalogues/). Codes are BCP 47 and are also the `Intl` locale of dates and
 * amounts; `name` is what the language picker shows: the language's own name, so a payer who
 * cannot read the page's current language still finds theirs.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'zh-CN', name: '简体中文', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const;

export type Lang = (typeof LANGUAGES)[number]['code'];
export type Direction = 'ltr' | 'rtl';

export const DEFAULT_LANG: Lang = 'en';
export const LANG_CODES: readonly Lang[] = LANGUAGES.map((l) => l.code);

const BY_CODE = new Map<string, (typeof LANGUAGES)[number]>(LANGUAGES.map((l) => [l.code.toLowerCase(), l]));
/** Primary subtags that mean one of ours whatever the region (`es-MX` reads Spanish, `pt-PT` the Brazilian catalogue). */
const BY_PRIMARY = new Map<string, Lang>([
  ['en', 'en'],
  ['es', 'es'],
  ['pt', 'pt-BR'],
  ['fr', 'fr'],
  ['de', 'de'],
  ['it', 'it'],
  ['tr', 'tr'],
  ['ru', 'ru'],
  ['ja', 'ja'],
  ['ar', 'ar'],
]);
/** Chinese: only the Simplified script is ours; Traditional (`zh-TW`, `zh-HK`, `zh-Hant`) falls through to the next choice. */
const TRADITIONAL = /^zh-(hant|tw|hk|mo)(-|$)/;

/**
 * The supported language a BCP 47 tag asks for, or undefined: the exact code (any case), else
 * its primary language (`de-AT` → `de`, `zh`/`zh-Hans`/`zh-SG` → `zh-CN`). Tags are the client's
 * to write, so anything malformed or longer than 35 characters is simply not a match.
 */
export function matchLanguage(tag: string | undefined | null): Lang | undefined {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > 35) return undefined;
  const t = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!/^[a-z]{2,8}(-[a-z0-9]{1,8})*$/.test(t)) return undefined;
  const exact = BY_CODE.get(t);
  if (exact !== undefined) return exact.code;
  const primary = t.split('-')[0] ?? '';
  if (primary === 'zh') return TRADITIONAL.test(t) ? undefined : 'zh-CN';
  return BY_PRIMARY.get(primary);
}

export const isLang = (v: unknown): v is Lang => typeof v === 'string' && BY_CODE.get(v.toLowerCase())?.code === v;

export function directionOf(lang: Lang): Direction {
  return BY_CODE.get(lang.toLowerCase())?.dir ?? 'ltr';
}
