import type en from '../en/pay.js';
import type { Messages } from '../types.js';

export default {
  'pay.pageTitle': 'Zahlung an {merchant} · hostpay',
  'pay.paymentTo': 'Zahlung an',
  'pay.detailsLabel': 'Zahlungsdetails',
  'pay.optionLabel': '{asset} über {network}',
  'pay.changeNetwork': 'Netzwerk wechseln',
  'pay.sendExactly': 'Senden Sie genau',
  'pay.copy': 'Kopieren',
  'pay.copyAmountRest': '(Betrag)',
  'pay.copyAddressRest': '(Adresse)',
  'pay.copied': 'Kopiert',
  'pay.copiedAnnounce': '{value} kopiert',
  'pay.toAddress': 'An diese {network}-Adresse im Netzwerk {chain}',
  'pay.qrAlt': 'QR-Code: {amount} {asset} an {address} senden',
  'pay.openWallet': 'In einer Wallet-App öffnen',
  'pay.receivedSoFar': 'Bisher erhalten: {amount} {asset}.',
  'pay.networkWarning':
    'Senden Sie nur {asset} über {network}; andere Assets oder Netzwerke gehen verloren oder kommen verspätet an.',
  'pay.networkHeading': 'Netzwerk',
  'pay.paymentsReceived': 'Eingegangene Zahlungen',
  'pay.paymentItem': '{amount} über {chain}: Transaktion {tx}',
  'pay.opensExplorer': '(öffnet einen Block-Explorer)',
  'pay.viewReceipt': 'Ihre Quittung {number} ansehen',
  'pay.noscript': 'Laden Sie diese Seite neu, um zu sehen, ob Ihre Zahlung eingegangen ist.',
  'pay.timeLeft': 'Verbleibende Zeit: {time} (bis {clock} UTC)',
  'pay.footer': 'Zahlungsanforderung {id}, abgewickelt von hostpay.',
  'pay.openTitle': 'Wir warten auf Ihre Zahlung',
  'pay.openMessage':
    'Senden Sie genau den unten angegebenen Betrag an die unten angegebene Adresse, bevor die Zeit abläuft.',
  'pay.cancelLink': 'Abbrechen und zurück zu {merchant}',
  'pay.underpaidTitle': 'Teilweise bezahlt',
  'pay.underpaidMessage': 'Ein Teil des Betrags ist eingegangen. Senden Sie den Rest, bevor die Zeit abläuft.',
  'pay.underpaidRemaining':
    'Wir haben {received} {asset} erhalten. Senden Sie die restlichen {remaining} {asset} über {network} an dieselbe Adresse, bevor die Zeit abläuft.',
  'pay.processingTitle': 'Zahlung erhalten, wird bestätigt',
  'pay.processingMessage': 'Ihre Zahlung wird bestätigt. Sie können diese Seite schließen.',
  'pay.processingConfirmations':
    'Bisher {confirmedCount} von {requiredCount, plural, one {# Bestätigung} other {# Bestätigungen}} in {network}. Sie müssen nichts mehr senden; diese Seite aktualisiert sich von selbst.',
  'pay.settledTitle': 'Bezahlt',
  'pay.settledMessage': 'Zahlung abgeschlossen. Vielen Dank.',
  'pay.returnLink': 'Zurück zu {merchant}',
  'pay.overpaidComplete': 'Zahlung abgeschlossen.',
  'pay.overpaidExcess':
    'Sie haben {excess} {asset} mehr gesendet als die fälligen {due} {asset}. Der Mehrbetrag ist mit der Zahlung an {merchant} gegangen: Bitten Sie {merchant} um Erstattung der Differenz, wenn Sie sie zurückhaben möchten.',
  'pay.overpaidOther':
    'Die zusätzlich über {network} gesendeten {amount} {asset} wurden für diese Zahlung nicht benötigt und werden verwahrt, nicht gutgeschrieben: Wenden Sie sich an {merchant}, um sie zurückzuerhalten.',
  'pay.overpaidUnknown': 'Sie haben mehr gesendet als fällig war: Wenden Sie sich wegen der Differenz an {merchant}.',
  'pay.expiredTitle': 'Diese Zahlungsanforderung ist abgelaufen',
  'pay.expiredMessage': 'Senden Sie nichts an ihre Adresse. Bitten Sie {merchant} um einen neuen Zahlungslink.',
  'pay.canceledTitle': 'Zahlung storniert',
  'pay.canceledMessage': '{merchant} hat diese Zahlungsanforderung storniert. Senden Sie nichts an ihre Adresse.',
  'pay.reviewTitle': 'Zahlung wird geprüft',
  'pay.reviewPartial':
    'Wenden Sie sich an {merchant}: Ein Teil des Betrags ist vor Ablauf der Zeit eingegangen, der Rest nicht. Senden Sie nichts mehr.',
  'pay.reviewLate':
    'Wenden Sie sich an {merchant}: Eine Zahlung ist eingegangen, nachdem diese Anforderung beendet war. Senden Sie nichts mehr.',
  'pay.reviewWrongAsset':
    'Wenden Sie sich an {merchant}: Eine Zahlung ist in einem Asset eingegangen, das diese Anforderung nicht verlangt hat. Senden Sie nichts mehr.',
  'pay.reviewOther':
    'Wenden Sie sich an {merchant}: Diese Zahlung muss manuell geprüft werden. Senden Sie nichts mehr.',
  'pay.invalidTitle': 'Zahlung abgelehnt',
  'pay.invalidMessage': 'Diese Zahlung wurde nach Prüfung abgelehnt. Wenden Sie sich an {merchant}.',
  'pay.otherMessage': 'Wenden Sie sich an {merchant}.',
  'pay.footerWaiting':
    'Lassen Sie diese Seite geöffnet, bis „Bezahlt“ angezeigt wird: Sie aktualisiert sich von selbst.',
  'pay.footerProcessing':
    'Sie müssen nichts mehr senden. Sie können diese Seite geöffnet lassen, um die Bestätigung zu sehen, oder sie schließen.',
  'pay.footerSettled': 'Diese Zahlung ist abgeschlossen: Sie können diese Seite schließen.',
  'pay.footerEnded': 'Diese Anforderung ist beendet: Ab jetzt wird an ihre Adresse keine Zahlung mehr erwartet.',
  'pay.footerReview': 'Bewahren Sie den Transaktions-Hash Ihrer Zahlung auf: Der Händler fragt möglicherweise danach.',
  'pay.footerOther': 'Wenden Sie sich wegen dieser Zahlung an den Händler.',
  'pay.notFoundTitle': 'Zahlungsseite nicht gefunden',
  'pay.notFoundMessage':
    'Dieser Zahlungslink ist ungültig oder wurde falsch eingegeben. Prüfen Sie den Link, den Sie erhalten haben, oder bitten Sie den Händler um einen neuen.',
  'pay.tooManyTitle': 'Zu viele Anfragen',
  'pay.tooManyMessage':
    'Warten Sie {seconds, plural, one {# Sekunde} other {# Sekunden}} und laden Sie diese Seite dann neu.',
} satisfies Messages<typeof en>;
