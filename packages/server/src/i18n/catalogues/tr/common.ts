import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Dil',
  'common.sandbox': 'Sandbox: bir test sunucusu. Gerçek para hareket etmez; gerçek fon göndermeyin.',
  'common.sandboxLabel': 'Sandbox bildirimi',
  'common.processedBy': 'hostpay tarafından işlenir',
} satisfies Messages<typeof en>;
