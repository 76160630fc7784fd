import messages from '../src/i18n/fronts/en/dashboard/index.js';
import { translator } from '../ui-kit/messages.js';

/** The dashboard's words, by key (src/i18n/fronts/en/dashboard); the build inlines the placeholder-free ones. */
export const t = translator(messages);
