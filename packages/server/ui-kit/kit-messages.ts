import messages from '../src/i18n/fronts/en/kit.js';
import { translator } from './messages.js';

/** The shared kit's words, by key (src/i18n/fronts/en/kit.ts); the build inlines the placeholder-free ones. */
export const t = translator(messages);
