import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Lingua',
  'common.sandbox': 'Sandbox: un server di prova. Non si muove denaro reale; non inviare fondi reali.',
  'common.sandboxLabel': 'Avviso sandbox',
  'common.processedBy': 'elaborato da hostpay',
} satisfies Messages<typeof en>;
