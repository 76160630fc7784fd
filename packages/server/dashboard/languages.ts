/**
 * The payer languages the settings page offers, by their own names: the server's LANGUAGES
 * (src/i18n/languages.ts), which the bundle does not import; a test keeps the two the same.
 */
export const PAYER_LANGUAGES: readonly (readonly [code: string, name: string])[] = [
  ['en', 'English'],
  ['es', 'Español'],
  ['pt-BR', 'Português (Brasil)'],
  ['fr', 'Français'],
  ['de', 'Deutsch'],
  ['it', 'Italiano'],
  ['tr', 'Türkçe'],
  ['ru', 'Русский'],
  ['zh-CN', '简体中文'],
  ['ja', '日本語'],
  ['ar', 'العربية'],
];
