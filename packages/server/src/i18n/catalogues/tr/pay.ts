import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Ödeme: {merchant} · hostpay',
  'pay.paymentTo': 'Ödeme alıcısı',
  'pay.detailsLabel': 'Ödeme bilgileri',
  'pay.optionLabel': '{network} ağında {asset}',
  'pay.changeNetwork': 'Ağı değiştir',
  'pay.sendExactly': 'Tam olarak şu tutarı gönderin',
  'pay.copy': 'Kopyala',
  'pay.copyAmountRest': '(tutar)',
  'pay.copyAddressRest': '(adres)',
  'pay.copied': 'Kopyalandı',
  'pay.copiedAnnounce': 'Kopyalandı: {value}',
  'pay.toAddress': '{chain} üzerindeki bu {network} adresine',
  'pay.qrAlt': 'QR kodu: {amount} {asset} tutarını {address} adresine gönderin',
  'pay.openWallet': 'Bir cüzdan uygulamasında aç',
  'pay.receivedSoFar': 'Şu ana kadar alınan: {amount} {asset}.',
  'pay.networkWarning':
    'Yalnızca {network} ağında {asset} gönderin; başka varlıklar veya ağlar kaybolur ya da gecikir.',
  'pay.networkHeading': 'Ağ',
  'pay.paymentsReceived': 'Alınan ödemeler',
  'pay.paymentItem': '{chain} üzerinde {amount}: işlem {tx}',
  'pay.opensExplorer': '(bir blok gezgini açar)',
  'pay.viewReceipt': 'Makbuzunuzu görüntüleyin: {number}',
  'pay.noscript': 'Ödemenizin ulaşıp ulaşmadığını görmek için bu sayfayı yenileyin.',
  'pay.timeLeft': 'Kalan süre: {time} ({clock} UTC saatine kadar)',
  'pay.footer': 'Ödeme talebi {id}, hostpay tarafından işlenmektedir.',
  'pay.openTitle': 'Ödemeniz bekleniyor',
  'pay.openMessage': 'Süre dolmadan aşağıdaki tutarın tam olarak aynısını aşağıdaki adrese gönderin.',
  'pay.cancelLink': 'İptal et ve şuraya dön: {merchant}',
  'pay.underpaidTitle': 'Kısmen ödendi',
  'pay.underpaidMessage': 'Tutarın bir kısmı ulaştı. Kalanını süre dolmadan gönderin.',
  'pay.underpaidRemaining':
    '{received} {asset} aldık. Kalan {remaining} {asset} tutarını süre dolmadan {network} ağında aynı adrese gönderin.',
  'pay.processingTitle': 'Ödeme alındı, onaylanıyor',
  'pay.processingMessage': 'Ödemeniz onaylanıyor. Bu sayfayı kapatabilirsiniz.',
  'pay.processingConfirmations':
    '{network} ağında şu ana kadar {confirmedCount}/{requiredCount, plural, one {# onay} other {# onay}}. Başka bir şey göndermeniz gerekmiyor; bu sayfa kendiliğinden güncellenir.',
  'pay.settledTitle': 'Ödendi',
  'pay.settledMessage': 'Ödeme tamamlandı. Teşekkür ederiz.',
  'pay.returnLink': 'Şuraya dön: {merchant}',
  'pay.overpaidComplete': 'Ödeme tamamlandı.',
  'pay.overpaidExcess':
    'Ödenmesi gereken {due} {asset} tutarından {excess} {asset} fazla gönderdiniz. Fazlası ödemeyle birlikte satıcıya ({merchant}) gitti: farkı geri almak isterseniz satıcıdan iade isteyin.',
  'pay.overpaidOther':
    'Ayrıca {network} ağında gönderilen {amount} {asset} bu ödeme için gerekmedi; hesaba geçirilmedi, bekletiliyor: geri almak için satıcıyla ({merchant}) iletişime geçin.',
  'pay.overpaidUnknown': 'Gerekenden fazla gönderdiniz: fark için satıcıyla ({merchant}) iletişime geçin.',
  'pay.expiredTitle': 'Bu ödeme talebinin süresi doldu',
  'pay.expiredMessage':
    'Bu talebin adresine hiçbir şey göndermeyin. Satıcıdan ({merchant}) yeni bir ödeme bağlantısı isteyin.',
  'pay.canceledTitle': 'Ödeme iptal edildi',
  'pay.canceledMessage':
    'Bu ödeme talebi satıcı ({merchant}) tarafından iptal edildi. Adresine hiçbir şey göndermeyin.',
  'pay.reviewTitle': 'Ödeme inceleniyor',
  'pay.reviewPartial':
    'Satıcıyla ({merchant}) iletişime geçin: tutarın bir kısmı süre dolmadan ulaştı, kalanı ulaşmadı. Başka bir şey göndermeyin.',
  'pay.reviewLate':
    'Satıcıyla ({merchant}) iletişime geçin: bu talep sona erdikten sonra bir ödeme ulaştı. Başka bir şey göndermeyin.',
  'pay.reviewWrongAsset':
    'Satıcıyla ({merchant}) iletişime geçin: bu talebin istemediği bir varlıkla bir ödeme ulaştı. Başka bir şey göndermeyin.',
  'pay.reviewOther':
    'Satıcıyla ({merchant}) iletişime geçin: bu ödemenin elle kontrol edilmesi gerekiyor. Başka bir şey göndermeyin.',
  'pay.invalidTitle': 'Ödeme reddedildi',
  'pay.invalidMessage': 'Bu ödeme incelendikten sonra reddedildi. Satıcıyla ({merchant}) iletişime geçin.',
  'pay.otherMessage': 'Satıcıyla ({merchant}) iletişime geçin.',
  'pay.footerWaiting': 'Bu sayfada “Ödendi” yazana kadar sayfayı açık tutun: kendiliğinden güncellenir.',
  'pay.footerProcessing':
    'Başka bir şey göndermeniz gerekmiyor. Ödemenin onaylandığını görmek için bu sayfayı açık tutabilir ya da kapatabilirsiniz.',
  'pay.footerSettled': 'Bu ödeme tamamlandı: bu sayfayı kapatabilirsiniz.',
  'pay.footerEnded': 'Bu talep sona erdi: bundan sonra adresine gönderilen hiçbir şey beklenmiyor.',
  'pay.footerReview': 'Gönderdiğiniz işlemin hash değerini saklayın: satıcı bunu isteyebilir.',
  'pay.footerOther': 'Bu ödeme hakkında satıcıyla iletişime geçin.',
  'pay.notFoundTitle': 'Ödeme sayfası bulunamadı',
  'pay.notFoundMessage':
    'Bu ödeme bağlantısı geçerli değil ya da yanlış yazıldı. Size verilen bağlantıyı kontrol edin veya satıcıdan yenisini isteyin.',
  'pay.tooManyTitle': 'Çok fazla istek',
  'pay.tooManyMessage': '{seconds, plural, one {# saniye} other {# saniye}} bekleyin, ardından bu sayfayı yenileyin.',
} satisfies Messages<typeof en>;
