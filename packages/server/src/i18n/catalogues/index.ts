import type { Lang } from '../languages.js';
import en from './en/index.js';
import es from './es/index.js';
import ptBR from './pt-BR/index.js';
import fr from './fr/index.js';
import de from './de/index.js';
import it from './it/index.js';
import tr from './tr/index.js';
import ru from './ru/index.js';
import zhCN from './zh-CN/index.js';
import ja from './ja/index.js';
import ar from './ar/index.js';

/**
 * One catalogue per language (a folder each, a file per page family inside it). English is the
 * reference: its keys are every message, and each other language must have exactly those keys
 * (the compiler checks it through `Catalogue`; test/i18n/catalogues.test.ts checks placeholders
 * and plural forms).
 */
export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;

export const CATALOGUES: Record<Lang, Catalogue> = {
  en: en,
  es: es,
  'pt-BR': ptBR,
  fr: fr,
  de: de,
  it: it,
  tr: tr,
  ru: ru,
  'zh-CN': zhCN,
  ja: ja,
  ar: ar,
};
