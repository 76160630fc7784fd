import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': '{merchant} へのお支払い · hostpay',
  'pay.paymentTo': 'お支払い先',
  'pay.detailsLabel': 'お支払い情報',
  'pay.optionLabel': '{asset}（{network}）',
  'pay.changeNetwork': 'ネットワークを変更',
  'pay.sendExactly': 'この金額を正確に送金してください',
  'pay.copy': 'コピー',
  'pay.copyAmountRest': '（金額）',
  'pay.copyAddressRest': '（アドレス）',
  'pay.copied': 'コピー済み',
  'pay.copiedAnnounce': '{value} をコピーしました',
  'pay.toAddress': '送金先：{chain} 上のこの {network} アドレス',
  'pay.qrAlt': 'QR コード：{amount} {asset} を {address} に送金',
  'pay.openWallet': 'ウォレットアプリで開く',
  'pay.receivedSoFar': 'これまでの受取額：{amount} {asset}。',
  'pay.networkWarning':
    '{asset} は必ず {network} で送金してください。他の資産や他のネットワークで送金すると、失われるか着金が遅れます。',
  'pay.networkHeading': 'ネットワーク',
  'pay.paymentsReceived': '受け取ったお支払い',
  'pay.paymentItem': '{amount}（{chain}）：トランザクション {tx}',
  'pay.opensExplorer': '（ブロックエクスプローラーが開きます）',
  'pay.viewReceipt': '領収書 {number} を表示',
  'pay.noscript': 'お支払いが届いたかどうかは、このページを再読み込みしてご確認ください。',
  'pay.timeLeft': '残り時間：{time}（UTC {clock} まで）',
  'pay.footer': 'お支払いリクエスト {id}、hostpay が処理しています。',
  'pay.openTitle': 'お支払いをお待ちしています',
  'pay.openMessage': '時間切れになる前に、下記の金額を正確に下記のアドレスへ送金してください。',
  'pay.cancelLink': 'キャンセルして {merchant} に戻る',
  'pay.underpaidTitle': '一部お支払い済み',
  'pay.underpaidMessage': '金額の一部が届きました。時間切れになる前に残りを送金してください。',
  'pay.underpaidRemaining':
    '{received} {asset} を受け取りました。時間切れになる前に、残りの {remaining} {asset} を {network} で同じアドレスへ送金してください。',
  'pay.processingTitle': 'お支払いを受け取りました（承認中）',
  'pay.processingMessage': 'お支払いを承認しています。このページは閉じてもかまいません。',
  'pay.processingConfirmations':
    '{network} での承認数：現在 {confirmedCount}/{requiredCount, plural, other {#}}。これ以上の送金は不要です。このページは自動で更新されます。',
  'pay.settledTitle': 'お支払い済み',
  'pay.settledMessage': 'お支払いが完了しました。ありがとうございました。',
  'pay.returnLink': '{merchant} に戻る',
  'pay.overpaidComplete': 'お支払いが完了しました。',
  'pay.overpaidExcess':
    'お支払い額 {due} {asset} より {excess} {asset} 多く送金されました。超過分はお支払いとともに {merchant} に渡っています。差額の返金をご希望の場合は {merchant} にご依頼ください。',
  'pay.overpaidOther':
    '{network} で追加送金された {amount} {asset} はこのお支払いには不要だったため、入金処理されずに保留されています。返金については {merchant} にお問い合わせください。',
  'pay.overpaidUnknown': 'お支払い額より多く送金されました。差額については {merchant} にお問い合わせください。',
  'pay.expiredTitle': 'このお支払いリクエストは期限切れです',
  'pay.expiredMessage':
    'このリクエストのアドレスには何も送金しないでください。新しいお支払いリンクを {merchant} にご依頼ください。',
  'pay.canceledTitle': 'お支払いはキャンセルされました',
  'pay.canceledMessage':
    '{merchant} がこのお支払いリクエストをキャンセルしました。このリクエストのアドレスには何も送金しないでください。',
  'pay.reviewTitle': 'お支払いを確認中です',
  'pay.reviewPartial':
    '{merchant} にお問い合わせください：時間内に金額の一部は届きましたが、残りは届きませんでした。これ以上送金しないでください。',
  'pay.reviewLate':
    '{merchant} にお問い合わせください：このリクエストの終了後にお支払いが届きました。これ以上送金しないでください。',
  'pay.reviewWrongAsset':
    '{merchant} にお問い合わせください：このリクエストで指定されていない資産でお支払いが届きました。これ以上送金しないでください。',
  'pay.reviewOther':
    '{merchant} にお問い合わせください：このお支払いは手動での確認が必要です。これ以上送金しないでください。',
  'pay.invalidTitle': 'お支払いは拒否されました',
  'pay.invalidMessage': 'このお支払いは確認の結果、拒否されました。{merchant} にお問い合わせください。',
  'pay.otherMessage': '{merchant} にお問い合わせください。',
  'pay.footerWaiting': '「お支払い済み」と表示されるまで、このページを開いたままにしてください。自動で更新されます。',
  'pay.footerProcessing':
    'これ以上の送金は不要です。承認を確認するためにこのページを開いたままにしても、閉じてもかまいません。',
  'pay.footerSettled': 'このお支払いは完了しました。このページは閉じてかまいません。',
  'pay.footerEnded': 'このリクエストは終了しました。今後このアドレスへの送金は想定されていません。',
  'pay.footerReview': '送金したトランザクションのハッシュを保管してください。加盟店から求められることがあります。',
  'pay.footerOther': 'このお支払いについては加盟店にお問い合わせください。',
  'pay.notFoundTitle': 'お支払いページが見つかりません',
  'pay.notFoundMessage':
    'このお支払いリンクは無効か、入力が間違っています。受け取ったリンクをご確認いただくか、加盟店に新しいリンクをご依頼ください。',
  'pay.tooManyTitle': 'リクエストが多すぎます',
  'pay.tooManyMessage': '{seconds, plural, other {# 秒}}待ってから、このページを再読み込みしてください。',
} satisfies Messages<typeof en>;
