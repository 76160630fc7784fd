import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'استرداد من',
  'refund.paidBackIn': 'يُردّ المبلغ بعملة {asset} على شبكة {network}.',
  'refund.formTitle': 'استلم المبلغ المسترد',
  'refund.checkAddressTitle': 'تحقّق من العنوان',
  'refund.whereHeading': 'إلى أين يُرسَل المبلغ المسترد؟',
  'refund.whereMessage': 'أدخل عنوان {asset} الخاص بك على شبكة {network}. يعمل هذا الرابط مرة واحدة فقط، حتى {when}.',
  'refund.addressLabel': 'عنوان {asset} الخاص بك على شبكة {network}',
  'refund.addressHintHex':
    'يبدأ بـ {starts} ويليه {count, plural, zero {# حرف} one {حرف واحد} two {حرفان} few {# أحرف} many {# حرفًا} other {# حرف}} من الأحرف a–f والأرقام.',
  'refund.addressHintLength':
    'يبدأ بـ {starts} وطوله {count, plural, zero {# حرف} one {حرف واحد} two {حرفان} few {# أحرف} many {# حرفًا} other {# حرف}}.',
  'refund.addressHintStarts': 'يبدأ بـ {starts}.',
  'refund.otherNetwork': 'الأموال المرسلة إلى عنوان على شبكة أخرى تضيع.',
  'refund.submit': 'أرسل المبلغ المسترد إلى هذا العنوان',
  'refund.addressMissing': 'أدخل العنوان الذي يجب إرسال المبلغ المسترد إليه.',
  'refund.addressBurn':
    'لا يمكن إرسال المبلغ المسترد إلى هذا العنوان: لا أحد يملك مفتاحه، لذا لا يمكن أبدًا إنفاق الأموال المرسلة إليه. أدخل عنوانًا تتحكم فيه.',
  'refund.addressInvalid':
    'لا يمكن إرسال المبلغ المسترد إلى هذا العنوان: تأكّد من أنه عنوان {asset} الخاص بك على شبكة {network}، وأنه كامل وخالٍ من الأخطاء.',
  'refund.requestedTitle': 'تم طلب الاسترداد',
  'refund.requestedMessage':
    'سيُرسَل {amount} إلى {address}. تم إبلاغ {merchant}؛ ويُرسَل المبلغ المسترد فور الموافقة عليه. يمكنك إغلاق هذه الصفحة.',
  'refund.usedTitle': 'رابط الاسترداد مستخدم بالفعل',
  'refund.usedHeading': 'تم استخدام رابط الاسترداد هذا من قبل',
  'refund.usedMessage':
    'أُدخل عنوان في {when}؛ يعمل الرابط مرة واحدة فقط. إن لم تكن أنت من فعل ذلك، فتواصل مع {merchant}.',
  'refund.expiredTitle': 'انتهت صلاحية رابط الاسترداد',
  'refund.expiredHeading': 'انتهت صلاحية رابط الاسترداد هذا',
  'refund.expiredMessage': 'كان صالحًا حتى {when}. اطلب رابطًا جديدًا من {merchant}.',
  'refund.nothingLeftTitle': 'لم يتبقَّ شيء لاسترداده',
  'refund.nothingLeftMessage': 'تم استرداد هذه الدفعة بالفعل. تواصل مع {merchant} إن كنت تتوقع المزيد.',
  'refund.notFoundTitle': 'رابط الاسترداد غير موجود',
  'refund.notFoundMessage':
    'رابط الاسترداد هذا غير صالح، أو كُتب بشكل خاطئ. تحقّق من الرابط الذي وصلك، أو اطلب رابطًا جديدًا من التاجر.',
  'refund.notRequestedTitle': 'لم يتم طلب الاسترداد',
  'refund.crossSite': 'لا يمكن إرسال هذا النموذج إلا من صفحته. افتح رابط الاسترداد الذي وصلك وحاول مرة أخرى.',
  'refund.merchantCannotPay':
    'لا يستطيع التاجر دفع هذا المبلغ المسترد الآن. لا يزال رابطك صالحًا: حاول لاحقًا، أو تواصل مع التاجر.',
  'refund.tooManyTitle': 'طلبات كثيرة جدًا',
  'refund.tooManyMessage':
    'انتظر {seconds, plural, zero {# ثانية} one {ثانية واحدة} two {ثانيتين} few {# ثوانٍ} many {# ثانية} other {# ثانية}}، ثم أعد تحميل هذه الصفحة.',
  'refund.footer': 'استرداد الدفعة {checkoutId}، بمعالجة hostpay.',
} satisfies Messages<typeof en>;
