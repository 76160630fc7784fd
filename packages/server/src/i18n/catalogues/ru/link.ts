import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Получатель платежа: {merchant}',
  'link.items': 'Товары',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Итого',
  'link.amountLabel': 'Сумма ({currency})',
  'link.amountAtLeast': 'Не менее {min}.',
  'link.amountAtMost': 'Не более {max}.',
  'link.amountBetween': 'От {min} до {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Только целые суммы.} one {Не более # знака после запятой.} few {Не более # знаков после запятой.} many {Не более # знаков после запятой.} other {Не более # знака после запятой.}}',
  'link.email': 'Электронная почта',
  'link.emailOptional': 'Электронная почта (необязательно)',
  'link.emailHint': 'Продавец отправит туда ваш чек.',
  'link.pay': 'Оплатить',
  'link.footer': 'Платёжная ссылка продавца {merchant}. Обработка: hostpay.',
  'link.amountMissing': 'Введите сумму к оплате в {currency}.',
  'link.amountNotNumber': 'Введите сумму числом больше 0, например 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Введите целую сумму, без дробной части.} one {Введите сумму не более чем с # знаком после запятой.} few {Введите сумму не более чем с # знаками после запятой.} many {Введите сумму не более чем с # знаками после запятой.} other {Введите сумму не более чем с # знаками после запятой.}}',
  'link.amountTooSmall': 'Сумма должна быть не меньше {min}.',
  'link.amountTooLarge': 'Сумма должна быть не больше {max}.',
  'link.emailRequired': 'Введите адрес электронной почты: он нужен продавцу для этого платежа.',
  'link.emailInvalid': 'Введите один адрес электронной почты, например name@example.com.',
  'link.formTooOld':
    'Эта форма открыта более {minutes, plural, one {# минуты} few {# минут} many {# минут} other {# минуты}} назад. Проверьте данные и снова нажмите «Оплатить».',
  'link.inactiveTitle': 'Эта платёжная ссылка отключена',
  'link.inactiveMessage': 'Продавец отключил её. Попросите у него новую ссылку.',
  'link.expiredTitle': 'Срок действия этой платёжной ссылки истёк',
  'link.expiredMessage': 'Она не принимает платежи с {when}. Попросите у продавца новую ссылку.',
  'link.usedUpTitle': 'Эта платёжная ссылка исчерпана',
  'link.usedUpMessage':
    'Она была создана для {count, plural, one {# платежа} few {# платежей} many {# платежей} other {# платежа}} и больше не принимает оплату. Попросите у продавца новую ссылку.',
  'link.notFoundTitle': 'Платёжная ссылка не найдена',
  'link.notFoundMessage': 'Эта платёжная ссылка недействительна или набрана с ошибкой. Проверьте полученную ссылку.',
  'link.notStartedTitle': 'Платёж не начат',
  'link.crossSite':
    'Эту форму можно отправить только с её собственной страницы. Снова откройте платёжную ссылку и попробуйте там.',
  'link.merchantCannotTake': 'Продавец сейчас не может принимать платежи. Попробуйте позже или свяжитесь с продавцом.',
  'link.tooManyTitle': 'Слишком много запросов',
  'link.tooManyMessage':
    'Подождите {seconds, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}} и попробуйте снова.',
} satisfies Messages<typeof en>;
