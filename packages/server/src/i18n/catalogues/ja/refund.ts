import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': '返金元',
  'refund.paidBackIn': '{network} ネットワークの {asset} で返金されます。',
  'refund.formTitle': '返金を受け取る',
  'refund.checkAddressTitle': 'アドレスをご確認ください',
  'refund.whereHeading': '返金の送り先',
  'refund.whereMessage':
    '{network} ネットワーク上のご自身の {asset} アドレスを入力してください。このリンクは {when} まで、1 回だけ使用できます。',
  'refund.addressLabel': '{network} ネットワーク上のあなたの {asset} アドレス',
  'refund.addressHintHex': '{starts} で始まり、続けて a–f の英字と数字からなる {count, plural, other {# 文字}}です。',
  'refund.addressHintLength': '{starts} で始まる {count, plural, other {# 文字}}です。',
  'refund.addressHintStarts': '{starts} で始まります。',
  'refund.otherNetwork': '別のネットワークのアドレスに送金すると、資金は失われます。',
  'refund.submit': 'このアドレスに返金を送る',
  'refund.addressMissing': '返金の送り先アドレスを入力してください。',
  'refund.addressBurn':
    'このアドレスには返金できません。このアドレスの鍵は誰も持っていないため、送った資金は二度と使えなくなります。ご自身が管理するアドレスを入力してください。',
  'refund.addressInvalid':
    'このアドレスには返金できません。{network} ネットワーク上のご自身の {asset} アドレスであること、欠けや入力ミスがないことをご確認ください。',
  'refund.requestedTitle': '返金を申請しました',
  'refund.requestedMessage':
    '{amount} が {address} に送金されます。{merchant} に通知しました。返金は承認され次第送金されます。このページは閉じてもかまいません。',
  'refund.usedTitle': '返金リンクは使用済みです',
  'refund.usedHeading': 'この返金リンクはすでに使用されています',
  'refund.usedMessage':
    '{when} にアドレスが入力されました。リンクは 1 回しか使えません。心当たりがない場合は {merchant} にお問い合わせください。',
  'refund.expiredTitle': '返金リンクの有効期限切れ',
  'refund.expiredHeading': 'この返金リンクは有効期限が切れています',
  'refund.expiredMessage': '有効期限は {when} でした。{merchant} に新しいリンクを依頼してください。',
  'refund.nothingLeftTitle': '返金できる残額はありません',
  'refund.nothingLeftMessage':
    'この支払いはすでに返金済みです。さらに返金があるはずの場合は {merchant} にお問い合わせください。',
  'refund.notFoundTitle': '返金リンクが見つかりません',
  'refund.notFoundMessage':
    'この返金リンクは無効か、入力が間違っています。受け取ったリンクをご確認いただくか、販売者に新しいリンクを依頼してください。',
  'refund.notRequestedTitle': '返金は申請されていません',
  'refund.crossSite':
    'このフォームは、このページからのみ送信できます。受け取った返金リンクを開いて、もう一度お試しください。',
  'refund.merchantCannotPay':
    '販売者は現在この返金を支払うことができません。リンクは引き続き有効です。しばらくしてから再度お試しいただくか、販売者にお問い合わせください。',
  'refund.tooManyTitle': 'リクエストが多すぎます',
  'refund.tooManyMessage': '{seconds, plural, other {# 秒}}待ってから、このページを再読み込みしてください。',
  'refund.footer': '支払い {checkoutId} の返金（hostpay による処理）',
} satisfies Messages<typeof en>;
