import messages from '../src/i18n/fronts/en/console/index.js';
import { translator } from '../ui-kit/messages.js';

/** The console's words, by key (src/i18n/fronts/en/console); the build inlines the placeholder-free ones. */
export const t = translator(messages);
