import type en from '../en/common.js';
import type { Messages } from '../types.js';

export default {
  'common.language': '言語',
  'common.sandbox': 'サンドボックス：テスト用サーバーです。実際のお金は動きません。本物の資金を送らないでください。',
  'common.sandboxLabel': 'サンドボックスのお知らせ',
  'common.processedBy': 'hostpay による処理',
} satisfies Messages<typeof en>;
