import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'دفعة إلى {merchant}',
  'link.items': 'المنتجات',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'الإجمالي',
  'link.amountLabel': 'المبلغ ({currency})',
  'link.amountAtLeast': 'لا يقل عن {min}.',
  'link.amountAtMost': 'لا يزيد على {max}.',
  'link.amountBetween': 'من {min} إلى {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {مبالغ صحيحة فقط.} zero {مبالغ صحيحة فقط.} one {حتى منزلة عشرية واحدة.} two {حتى منزلتين عشريتين.} few {حتى # منازل عشرية.} many {حتى # منزلة عشرية.} other {حتى # منزلة عشرية.}}',
  'link.email': 'البريد الإلكتروني',
  'link.emailOptional': 'البريد الإلكتروني (اختياري)',
  'link.emailHint': 'سيرسل التاجر إيصالك إلى هذا العنوان.',
  'link.pay': 'ادفع',
  'link.footer': 'رابط دفع من {merchant}، بمعالجة hostpay.',
  'link.amountMissing': 'أدخل المبلغ المراد دفعه بعملة {currency}.',
  'link.amountNotNumber': 'أدخل المبلغ رقمًا أكبر من 0، مثل 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {أدخل مبلغًا صحيحًا بلا كسور عشرية.} zero {أدخل مبلغًا صحيحًا بلا كسور عشرية.} one {أدخل مبلغًا بمنزلة عشرية واحدة على الأكثر.} two {أدخل مبلغًا بمنزلتين عشريتين على الأكثر.} few {أدخل مبلغًا بـ # منازل عشرية على الأكثر.} many {أدخل مبلغًا بـ # منزلة عشرية على الأكثر.} other {أدخل مبلغًا بـ # منزلة عشرية على الأكثر.}}',
  'link.amountTooSmall': 'يجب ألا يقل المبلغ عن {min}.',
  'link.amountTooLarge': 'يجب ألا يزيد المبلغ على {max}.',
  'link.emailRequired': 'أدخل بريدك الإلكتروني: يحتاجه التاجر لهذه الدفعة.',
  'link.emailInvalid': 'أدخل عنوان بريد إلكتروني واحدًا، مثل name@example.com.',
  'link.formTooOld':
    'مضى على فتح هذا النموذج أكثر من {minutes, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتين} few {# دقائق} many {# دقيقة} other {# دقيقة}}. تحقّق من البيانات ثم اضغط «ادفع» مرة أخرى.',
  'link.inactiveTitle': 'رابط الدفع هذا غير مفعّل',
  'link.inactiveMessage': 'أوقف التاجر هذا الرابط. اطلب منه رابطًا جديدًا.',
  'link.expiredTitle': 'انتهت صلاحية رابط الدفع هذا',
  'link.expiredMessage': 'توقف عن قبول المدفوعات في {when}. اطلب رابطًا جديدًا من التاجر.',
  'link.usedUpTitle': 'استُنفد رابط الدفع هذا',
  'link.usedUpMessage':
    'أُنشئ هذا الرابط لـ {count, plural, zero {# دفعة} one {دفعة واحدة} two {دفعتين} few {# دفعات} many {# دفعة} other {# دفعة}} ولم يعد يقبل المزيد. اطلب رابطًا جديدًا من التاجر.',
  'link.notFoundTitle': 'رابط الدفع غير موجود',
  'link.notFoundMessage': 'رابط الدفع هذا غير صالح، أو كُتب بشكل خاطئ. تحقّق من الرابط الذي وصلك.',
  'link.notStartedTitle': 'لم تبدأ عملية الدفع',
  'link.crossSite': 'لا يمكن إرسال هذا النموذج إلا من صفحته. افتح رابط الدفع مرة أخرى وحاول من هناك.',
  'link.merchantCannotTake': 'لا يستطيع التاجر قبول المدفوعات الآن. حاول لاحقًا، أو تواصل مع التاجر.',
  'link.tooManyTitle': 'طلبات كثيرة جدًا',
  'link.tooManyMessage':
    'انتظر {seconds, plural, zero {# ثانية} one {ثانية واحدة} two {ثانيتين} few {# ثوانٍ} many {# ثانية} other {# ثانية}}، ثم حاول مرة أخرى.',
} satisfies Messages<typeof en>;
