import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Idioma',
  'common.sandbox': 'Sandbox: un servidor de pruebas. No se mueve dinero real; no envíe fondos reales.',
  'common.sandboxLabel': 'Aviso de sandbox',
  'common.processedBy': 'procesado por hostpay',
} satisfies Messages<typeof en>;
