import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Оплата: {merchant} · hostpay',
  'pay.paymentTo': 'Получатель платежа',
  'pay.detailsLabel': 'Реквизиты платежа',
  'pay.optionLabel': '{asset} в сети {network}',
  'pay.changeNetwork': 'Сменить сеть',
  'pay.sendExactly': 'Отправьте ровно',
  'pay.copy': 'Копировать',
  'pay.copyAmountRest': 'сумму',
  'pay.copyAddressRest': 'адрес',
  'pay.copied': 'Скопировано',
  'pay.copiedAnnounce': 'Скопировано: {value}',
  'pay.toAddress': 'На этот адрес {network} в сети {chain}',
  'pay.qrAlt': 'QR-код: отправьте {amount} {asset} на адрес {address}',
  'pay.openWallet': 'Открыть в приложении кошелька',
  'pay.receivedSoFar': 'Получено на данный момент: {amount} {asset}.',
  'pay.networkWarning':
    'Отправляйте только {asset} в сети {network}: другие активы или сети будут потеряны или задержаны.',
  'pay.networkHeading': 'Сеть',
  'pay.paymentsReceived': 'Полученные платежи',
  'pay.paymentItem': '{amount} в сети {chain}: транзакция {tx}',
  'pay.opensExplorer': '(открывает обозреватель блоков)',
  'pay.viewReceipt': 'Открыть квитанцию {number}',
  'pay.noscript': 'Обновите эту страницу, чтобы узнать, поступил ли ваш платёж.',
  'pay.timeLeft': 'Осталось: {time} (до {clock} UTC)',
  'pay.footer': 'Запрос на оплату {id}, обрабатывается hostpay.',
  'pay.openTitle': 'Ожидаем ваш платёж',
  'pay.openMessage': 'Отправьте ровно указанную ниже сумму на указанный ниже адрес, пока не истекло время.',
  'pay.cancelLink': 'Отменить и вернуться в {merchant}',
  'pay.underpaidTitle': 'Оплачено частично',
  'pay.underpaidMessage': 'Часть суммы поступила. Отправьте остаток, пока не истекло время.',
  'pay.underpaidRemaining':
    'Мы получили {received} {asset}. Отправьте оставшиеся {remaining} {asset} в сети {network} на тот же адрес, пока не истекло время.',
  'pay.processingTitle': 'Платёж получен, идёт подтверждение',
  'pay.processingMessage': 'Ваш платёж подтверждается. Эту страницу можно закрыть.',
  'pay.processingConfirmations':
    'Пока {confirmedCount} из {requiredCount, plural, one {# подтверждения} few {# подтверждений} many {# подтверждений} other {# подтверждения}} в сети {network}. Больше ничего отправлять не нужно; страница обновляется сама.',
  'pay.settledTitle': 'Оплачено',
  'pay.settledMessage': 'Оплата завершена. Спасибо.',
  'pay.returnLink': 'Вернуться в {merchant}',
  'pay.overpaidComplete': 'Оплата завершена.',
  'pay.overpaidExcess':
    'Вы отправили на {excess} {asset} больше положенных {due} {asset}. Излишек ушёл продавцу {merchant} вместе с платежом: попросите продавца вернуть разницу, если хотите её получить.',
  'pay.overpaidOther':
    '{amount} {asset}, дополнительно отправленные в сети {network}, для этого платежа не понадобились и удерживаются, не зачислены: чтобы вернуть их, свяжитесь с продавцом {merchant}.',
  'pay.overpaidUnknown': 'Вы отправили больше положенного: свяжитесь с продавцом {merchant} по поводу разницы.',
  'pay.expiredTitle': 'Срок этого запроса на оплату истёк',
  'pay.expiredMessage': 'Ничего не отправляйте на его адрес. Попросите у продавца {merchant} новую ссылку на оплату.',
  'pay.canceledTitle': 'Платёж отменён',
  'pay.canceledMessage': 'Продавец {merchant} отменил этот запрос на оплату. Ничего не отправляйте на его адрес.',
  'pay.reviewTitle': 'Платёж на проверке',
  'pay.reviewPartial':
    'Свяжитесь с продавцом {merchant}: часть суммы поступила до истечения времени, а остаток — нет. Больше ничего не отправляйте.',
  'pay.reviewLate':
    'Свяжитесь с продавцом {merchant}: платёж поступил после завершения этого запроса. Больше ничего не отправляйте.',
  'pay.reviewWrongAsset':
    'Свяжитесь с продавцом {merchant}: платёж поступил в активе, который этот запрос не предусматривал. Больше ничего не отправляйте.',
  'pay.reviewOther':
    'Свяжитесь с продавцом {merchant}: этот платёж требует ручной проверки. Больше ничего не отправляйте.',
  'pay.invalidTitle': 'Платёж отклонён',
  'pay.invalidMessage': 'Этот платёж отклонён после проверки. Свяжитесь с продавцом {merchant}.',
  'pay.otherMessage': 'Свяжитесь с продавцом {merchant}.',
  'pay.footerWaiting': 'Не закрывайте эту страницу, пока на ней не появится «Оплачено»: она обновляется сама.',
  'pay.footerProcessing':
    'Больше ничего отправлять не нужно. Можете оставить страницу открытой, чтобы увидеть подтверждение платежа, или закрыть её.',
  'pay.footerSettled': 'Оплата завершена: эту страницу можно закрыть.',
  'pay.footerEnded': 'Этот запрос завершён: поступления на его адрес больше не ожидаются.',
  'pay.footerReview': 'Сохраните хеш транзакции, которую вы отправили: продавец может его запросить.',
  'pay.footerOther': 'Свяжитесь с продавцом по поводу этого платежа.',
  'pay.notFoundTitle': 'Страница оплаты не найдена',
  'pay.notFoundMessage':
    'Эта ссылка на оплату недействительна или набрана с ошибкой. Проверьте полученную ссылку или попросите у продавца новую.',
  'pay.tooManyTitle': 'Слишком много запросов',
  'pay.tooManyMessage':
    'Подождите {seconds, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}} и обновите эту страницу.',
} satisfies Messages<typeof en>;
