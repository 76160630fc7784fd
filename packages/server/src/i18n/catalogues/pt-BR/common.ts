import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Idioma',
  'common.sandbox': 'Sandbox: um servidor de testes. Nenhum dinheiro real é movimentado; não envie fundos reais.',
  'common.sandboxLabel': 'Aviso de sandbox',
  'common.processedBy': 'processado por hostpay',
} satisfies Messages<typeof en>;
