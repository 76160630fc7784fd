import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Ödeme alıcısı: {merchant}',
  'link.items': 'Ürünler',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Toplam',
  'link.amountLabel': 'Tutar ({currency})',
  'link.amountAtLeast': 'En az {min}.',
  'link.amountAtMost': 'En fazla {max}.',
  'link.amountBetween': '{min} ile {max} arası.',
  'link.amountDecimals': '{count, plural, =0 {Yalnızca tam sayı tutarlar.} other {En fazla # ondalık basamak.}}',
  'link.email': 'E-posta',
  'link.emailOptional': 'E-posta (isteğe bağlı)',
  'link.emailHint': 'Satıcı makbuzunuzu bu adrese gönderir.',
  'link.pay': 'Öde',
  'link.footer': '{merchant} ödeme bağlantısı; hostpay tarafından işlenir.',
  'link.amountMissing': 'Ödenecek tutarı {currency} cinsinden girin.',
  'link.amountNotNumber': 'Tutarı 0’dan büyük bir sayı olarak girin, örneğin 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Ondalıksız, tam bir tutar girin.} other {En fazla # ondalık basamaklı bir tutar girin.}}',
  'link.amountTooSmall': 'Tutar en az {min} olmalıdır.',
  'link.amountTooLarge': 'Tutar en fazla {max} olabilir.',
  'link.emailRequired': 'E-posta adresinizi girin: satıcının bu ödeme için buna ihtiyacı var.',
  'link.emailInvalid': 'Tek bir e-posta adresi girin, örneğin ad@example.com.',
  'link.formTooOld':
    'Bu form {minutes, plural, other {# dakikadan}} daha eski. Bilgileri kontrol edip yeniden Öde düğmesine basın.',
  'link.inactiveTitle': 'Bu ödeme bağlantısı devre dışı',
  'link.inactiveMessage': 'Satıcı bu bağlantıyı kapattı. Satıcıdan yeni bir bağlantı isteyin.',
  'link.expiredTitle': 'Bu ödeme bağlantısının süresi doldu',
  'link.expiredMessage': '{when} itibarıyla ödeme kabul etmiyor. Satıcıdan yeni bir bağlantı isteyin.',
  'link.usedUpTitle': 'Bu ödeme bağlantısının kullanım hakkı doldu',
  'link.usedUpMessage':
    '{count, plural, other {# ödeme}} için oluşturuldu ve daha fazlasını kabul etmiyor. Satıcıdan yeni bir bağlantı isteyin.',
  'link.notFoundTitle': 'Ödeme bağlantısı bulunamadı',
  'link.notFoundMessage':
    'Bu ödeme bağlantısı geçerli değil veya yanlış yazılmış. Size verilen bağlantıyı kontrol edin.',
  'link.notStartedTitle': 'Ödeme başlatılmadı',
  'link.crossSite': 'Bu form yalnızca kendi sayfasından gönderilebilir. Ödeme bağlantısını yeniden açıp orada deneyin.',
  'link.merchantCannotTake':
    'Satıcı şu anda ödeme kabul edemiyor. Daha sonra yeniden deneyin ya da satıcıyla iletişime geçin.',
  'link.tooManyTitle': 'Çok fazla istek',
  'link.tooManyMessage': '{seconds, plural, other {# saniye}} bekleyin, ardından yeniden deneyin.',
} satisfies Messages<typeof en>;
