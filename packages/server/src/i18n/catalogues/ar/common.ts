import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': 'اللغة',
  'common.sandbox': 'بيئة تجريبية: خادم اختبار. لا تنتقل أموال حقيقية؛ لا ترسل أموالًا حقيقية.',
  'common.sandboxLabel': 'إشعار البيئة التجريبية',
  'common.processedBy': 'تتم المعالجة بواسطة hostpay',
} satisfies Messages<typeof en>;
