import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': '语言',
  'common.sandbox': '沙盒：测试服务器。不会转移真实资金；请勿发送真实资金。',
  'common.sandboxLabel': '沙盒提示',
  'common.processedBy': '由 hostpay 处理',
} satisfies Messages<typeof en>;
