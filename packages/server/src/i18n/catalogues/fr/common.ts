import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Langue',
  'common.sandbox': 'Sandbox : un serveur de test. Aucun argent réel ne circule ; n’envoyez pas de vrais fonds.',
  'common.sandboxLabel': 'Avis de sandbox',
  'common.processedBy': 'traité par hostpay',
} satisfies Messages<typeof en>;
