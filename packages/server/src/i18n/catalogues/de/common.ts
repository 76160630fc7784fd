import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Sprache',
  'common.sandbox': 'Sandbox: ein Testserver. Es wird kein echtes Geld bewegt; senden Sie keine echten Beträge.',
  'common.sandboxLabel': 'Sandbox-Hinweis',
  'common.processedBy': 'abgewickelt von hostpay',
} satisfies Messages<typeof en>;
