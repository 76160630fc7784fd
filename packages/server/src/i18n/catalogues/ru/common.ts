import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'Язык',
  'common.sandbox': 'Песочница: тестовый сервер. Реальные деньги не переводятся; не отправляйте настоящие средства.',
  'common.sandboxLabel': 'Уведомление о песочнице',
  'common.processedBy': 'обработано hostpay',
} satisfies Messages<typeof en>;
