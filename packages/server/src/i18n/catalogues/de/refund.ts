import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Erstattung von',
  'refund.paidBackIn': 'Erstattet in {asset} im Netzwerk {network}.',
  'refund.formTitle': 'Erstattung erhalten',
  'refund.checkAddressTitle': 'Adresse prüfen',
  'refund.whereHeading': 'Wohin soll die Erstattung gehen?',
  'refund.whereMessage':
    'Geben Sie Ihre eigene {asset}-Adresse im Netzwerk {network} ein. Dieser Link funktioniert nur einmal, bis zum {when}.',
  'refund.addressLabel': 'Ihre {asset}-Adresse im Netzwerk {network}',
  'refund.addressHintHex':
    'Sie beginnt mit {starts}, gefolgt von {count, plural, one {# Zeichen} other {# Zeichen}} aus den Buchstaben a–f und Ziffern.',
  'refund.addressHintLength':
    'Sie beginnt mit {starts} und ist {count, plural, one {# Zeichen} other {# Zeichen}} lang.',
  'refund.addressHintStarts': 'Sie beginnt mit {starts}.',
  'refund.otherNetwork': 'Geld, das an eine Adresse in einem anderen Netzwerk gesendet wird, ist verloren.',
  'refund.submit': 'Erstattung an diese Adresse senden',
  'refund.addressMissing': 'Geben Sie die Adresse ein, an die die Erstattung gehen soll.',
  'refund.addressBurn':
    'An diese Adresse kann die Erstattung nicht gesendet werden: Niemand besitzt ihren Schlüssel, daher kann dorthin gesendetes Geld nie ausgegeben werden. Geben Sie eine Adresse an, über die Sie selbst verfügen.',
  'refund.addressInvalid':
    'An diese Adresse kann die Erstattung nicht gesendet werden: Prüfen Sie, ob es Ihre {asset}-Adresse im Netzwerk {network} ist, vollständig und ohne Tippfehler.',
  'refund.requestedTitle': 'Erstattung angefordert',
  'refund.requestedMessage':
    '{amount} werden an {address} gesendet. {merchant} wurde informiert; die Erstattung wird gesendet, sobald sie freigegeben ist. Sie können diese Seite schließen.',
  'refund.usedTitle': 'Erstattungslink bereits verwendet',
  'refund.usedHeading': 'Dieser Erstattungslink wurde bereits verwendet',
  'refund.usedMessage':
    'Am {when} wurde eine Adresse angegeben; ein Link funktioniert nur einmal. Falls Sie das nicht waren, wenden Sie sich an {merchant}.',
  'refund.expiredTitle': 'Erstattungslink abgelaufen',
  'refund.expiredHeading': 'Dieser Erstattungslink ist abgelaufen',
  'refund.expiredMessage': 'Er war bis zum {when} gültig. Bitten Sie {merchant} um einen neuen.',
  'refund.nothingLeftTitle': 'Nichts mehr zu erstatten',
  'refund.nothingLeftMessage':
    'Diese Zahlung wurde bereits erstattet. Wenden Sie sich an {merchant}, wenn Sie mehr erwartet haben.',
  'refund.notFoundTitle': 'Erstattungslink nicht gefunden',
  'refund.notFoundMessage':
    'Dieser Erstattungslink ist ungültig oder wurde falsch eingegeben. Prüfen Sie den Link, den Sie erhalten haben, oder bitten Sie den Händler um einen neuen.',
  'refund.notRequestedTitle': 'Erstattung nicht angefordert',
  'refund.crossSite':
    'Dieses Formular kann nur von seiner eigenen Seite gesendet werden. Öffnen Sie den Erstattungslink, den Sie erhalten haben, und versuchen Sie es erneut.',
  'refund.merchantCannotPay':
    'Der Händler kann diese Erstattung gerade nicht auszahlen. Ihr Link bleibt gültig: Versuchen Sie es später erneut oder wenden Sie sich an den Händler.',
  'refund.tooManyTitle': 'Zu viele Anfragen',
  'refund.tooManyMessage':
    'Warten Sie {seconds, plural, one {# Sekunde} other {# Sekunden}} und laden Sie diese Seite dann neu.',
  'refund.footer': 'Erstattung der Zahlung {checkoutId}, abgewickelt von hostpay.',
} satisfies Messages<typeof en>;
