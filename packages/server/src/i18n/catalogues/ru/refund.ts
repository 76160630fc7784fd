import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Возврат от',
  'refund.paidBackIn': 'Возврат в {asset} в сети {network}.',
  'refund.formTitle': 'Получите возврат',
  'refund.checkAddressTitle': 'Проверьте адрес',
  'refund.whereHeading': 'Куда отправить возврат?',
  'refund.whereMessage': 'Введите свой адрес {asset} в сети {network}. Ссылка действует один раз, до {when}.',
  'refund.addressLabel': 'Ваш адрес {asset} в сети {network}',
  'refund.addressHintHex':
    'Начинается с {starts}, далее {count, plural, one {# символ} few {# символа} many {# символов} other {# символа}}: буквы a–f и цифры.',
  'refund.addressHintLength':
    'Начинается с {starts}, длина — {count, plural, one {# символ} few {# символа} many {# символов} other {# символа}}.',
  'refund.addressHintStarts': 'Начинается с {starts}.',
  'refund.otherNetwork': 'Деньги, отправленные на адрес в другой сети, будут потеряны.',
  'refund.submit': 'Отправить возврат на этот адрес',
  'refund.addressMissing': 'Введите адрес, на который нужно отправить возврат.',
  'refund.addressBurn':
    'На этот адрес нельзя отправить возврат: ключа от него нет ни у кого, поэтому отправленные туда деньги никогда не удастся потратить. Укажите адрес, которым вы управляете.',
  'refund.addressInvalid':
    'На этот адрес нельзя отправить возврат: проверьте, что это ваш адрес {asset} в сети {network}, что он указан полностью и без опечаток.',
  'refund.requestedTitle': 'Возврат запрошен',
  'refund.requestedMessage':
    '{amount} будут отправлены на адрес {address}. Продавец {merchant} уведомлён; возврат будет отправлен после одобрения. Эту страницу можно закрыть.',
  'refund.usedTitle': 'Ссылка на возврат уже использована',
  'refund.usedHeading': 'Эта ссылка на возврат уже использована',
  'refund.usedMessage':
    'Адрес был указан {when}; ссылка действует только один раз. Если это были не вы, свяжитесь с продавцом {merchant}.',
  'refund.expiredTitle': 'Срок действия ссылки на возврат истёк',
  'refund.expiredHeading': 'Срок действия этой ссылки на возврат истёк',
  'refund.expiredMessage': 'Она действовала до {when}. Попросите у продавца {merchant} новую.',
  'refund.nothingLeftTitle': 'Возвращать больше нечего',
  'refund.nothingLeftMessage': 'Этот платёж уже возвращён. Если вы ожидали большего, свяжитесь с продавцом {merchant}.',
  'refund.notFoundTitle': 'Ссылка на возврат не найдена',
  'refund.notFoundMessage':
    'Эта ссылка на возврат недействительна или набрана с ошибкой. Проверьте полученную ссылку или попросите у продавца новую.',
  'refund.notRequestedTitle': 'Возврат не запрошен',
  'refund.crossSite':
    'Эту форму можно отправить только с её собственной страницы. Откройте полученную ссылку на возврат и попробуйте снова.',
  'refund.merchantCannotPay':
    'Продавец сейчас не может выплатить этот возврат. Ваша ссылка по-прежнему действует: попробуйте позже или свяжитесь с продавцом.',
  'refund.tooManyTitle': 'Слишком много запросов',
  'refund.tooManyMessage':
    'Подождите {seconds, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}} и перезагрузите страницу.',
  'refund.footer': 'Возврат по платежу {checkoutId}. Обработка: hostpay.',
} satisfies Messages<typeof en>;
