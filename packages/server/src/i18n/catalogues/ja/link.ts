import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': '{merchant} へのお支払い',
  'link.items': '商品',
  'link.itemLine': '{quantity} × {name}',
  'link.total': '合計',
  'link.amountLabel': '金額（{currency}）',
  'link.amountAtLeast': '{min} 以上。',
  'link.amountAtMost': '{max} 以下。',
  'link.amountBetween': '{min} 以上 {max} 以下。',
  'link.amountDecimals': '{count, plural, =0 {整数の金額のみ。} other {小数点以下 # 桁まで。}}',
  'link.email': 'メールアドレス',
  'link.emailOptional': 'メールアドレス（任意）',
  'link.emailHint': '販売者からこのアドレスに領収書が届きます。',
  'link.pay': '支払う',
  'link.footer': '{merchant} の支払いリンク（hostpay による処理）',
  'link.amountMissing': 'お支払い金額を {currency} で入力してください。',
  'link.amountNotNumber': '金額は 0 より大きい数値で入力してください（例：25）。',
  'link.amountTooPrecise':
    '{count, plural, =0 {小数点なしの整数で入力してください。} other {小数点以下 # 桁までの金額を入力してください。}}',
  'link.amountTooSmall': '金額は {min} 以上にしてください。',
  'link.amountTooLarge': '金額は {max} 以下にしてください。',
  'link.emailRequired': 'メールアドレスを入力してください。このお支払いには販売者がメールアドレスを必要としています。',
  'link.emailInvalid': 'メールアドレスを 1 つ入力してください（例：name@example.com）。',
  'link.formTooOld':
    'このフォームは開いてから {minutes, plural, other {# 分}}以上経過しています。内容を確認して、もう一度「支払う」を押してください。',
  'link.inactiveTitle': 'この支払いリンクは無効になっています',
  'link.inactiveMessage': '販売者がこのリンクを停止しました。新しいリンクを販売者に依頼してください。',
  'link.expiredTitle': 'この支払いリンクは有効期限が切れています',
  'link.expiredMessage': '{when} をもって支払いの受付を終了しました。新しいリンクを販売者に依頼してください。',
  'link.usedUpTitle': 'この支払いリンクは上限に達しました',
  'link.usedUpMessage':
    'このリンクは {count, plural, other {# 件}}の支払い用に作成されたもので、これ以上は受け付けていません。新しいリンクを販売者に依頼してください。',
  'link.notFoundTitle': '支払いリンクが見つかりません',
  'link.notFoundMessage': 'この支払いリンクは無効か、入力が間違っています。受け取ったリンクをご確認ください。',
  'link.notStartedTitle': '支払いは開始されていません',
  'link.crossSite':
    'このフォームは、このページからのみ送信できます。支払いリンクをもう一度開いて、そこからお試しください。',
  'link.merchantCannotTake':
    '販売者は現在お支払いを受け付けられません。しばらくしてから再度お試しいただくか、販売者にお問い合わせください。',
  'link.tooManyTitle': 'リクエストが多すぎます',
  'link.tooManyMessage': '{seconds, plural, other {# 秒}}待ってから、もう一度お試しください。',
} satisfies Messages<typeof en>;
