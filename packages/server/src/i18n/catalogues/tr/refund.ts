import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'İadeyi yapan',
  'refund.paidBackIn': '{network} ağında {asset} olarak geri ödenir.',
  'refund.formTitle': 'İadenizi alın',
  'refund.checkAddressTitle': 'Adresi kontrol edin',
  'refund.whereHeading': 'İade nereye gönderilsin?',
  'refund.whereMessage':
    '{network} ağındaki kendi {asset} adresinizi girin. Bu bağlantı yalnızca bir kez ve {when} tarihine kadar kullanılabilir.',
  'refund.addressLabel': '{network} ağındaki {asset} adresiniz',
  'refund.addressHintHex':
    '{starts} ile başlar, ardından a–f harfleri ve rakamlardan oluşan {count, plural, other {# karakter}} gelir.',
  'refund.addressHintLength': '{starts} ile başlar ve {count, plural, other {# karakter}} uzunluğundadır.',
  'refund.addressHintStarts': '{starts} ile başlar.',
  'refund.otherNetwork': 'Başka bir ağdaki adrese gönderilen para kaybolur.',
  'refund.submit': 'İademi bu adrese gönder',
  'refund.addressMissing': 'İadenin gönderileceği adresi girin.',
  'refund.addressBurn':
    'İade bu adrese gönderilemez: bu adresin anahtarı kimsede yok, bu yüzden oraya gönderilen para asla harcanamaz. Kontrolünüzdeki bir adresi girin.',
  'refund.addressInvalid':
    'İade bu adrese gönderilemez: bunun {network} ağındaki {asset} adresiniz olduğunu, eksiksiz ve yazım hatası olmadan girildiğini kontrol edin.',
  'refund.requestedTitle': 'İade talep edildi',
  'refund.requestedMessage':
    '{amount}, {address} adresine gönderilecek. {merchant} bilgilendirildi; iade onaylanır onaylanmaz gönderilir. Bu sayfayı kapatabilirsiniz.',
  'refund.usedTitle': 'İade bağlantısı zaten kullanıldı',
  'refund.usedHeading': 'Bu iade bağlantısı zaten kullanıldı',
  'refund.usedMessage':
    '{when} tarihinde bir adres girildi; her bağlantı yalnızca bir kez kullanılabilir. Bu siz değilseniz {merchant} ile iletişime geçin.',
  'refund.expiredTitle': 'İade bağlantısının süresi doldu',
  'refund.expiredHeading': 'Bu iade bağlantısının süresi doldu',
  'refund.expiredMessage': '{when} tarihine kadar geçerliydi. Yeni bir bağlantı için {merchant} ile iletişime geçin.',
  'refund.nothingLeftTitle': 'İade edilecek tutar kalmadı',
  'refund.nothingLeftMessage':
    'Bu ödeme zaten iade edildi. Daha fazlasını bekliyorsanız {merchant} ile iletişime geçin.',
  'refund.notFoundTitle': 'İade bağlantısı bulunamadı',
  'refund.notFoundMessage':
    'Bu iade bağlantısı geçerli değil veya yanlış yazılmış. Size verilen bağlantıyı kontrol edin ya da satıcıdan yenisini isteyin.',
  'refund.notRequestedTitle': 'İade talep edilmedi',
  'refund.crossSite':
    'Bu form yalnızca kendi sayfasından gönderilebilir. Size verilen iade bağlantısını açıp yeniden deneyin.',
  'refund.merchantCannotPay':
    'Satıcı bu iadeyi şu anda ödeyemiyor. Bağlantınız hâlâ geçerli: daha sonra yeniden deneyin ya da satıcıyla iletişime geçin.',
  'refund.tooManyTitle': 'Çok fazla istek',
  'refund.tooManyMessage': '{seconds, plural, other {# saniye}} bekleyin, ardından bu sayfayı yeniden yükleyin.',
  'refund.footer': '{checkoutId} numaralı ödemenin iadesi; hostpay tarafından işlenir.',
} satisfies Messages<typeof en>;
