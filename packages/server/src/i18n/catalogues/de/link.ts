import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Zahlung an {merchant}',
  'link.items': 'Artikel',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Gesamtbetrag',
  'link.amountLabel': 'Betrag ({currency})',
  'link.amountAtLeast': 'Mindestens {min}.',
  'link.amountAtMost': 'Höchstens {max}.',
  'link.amountBetween': 'Zwischen {min} und {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Nur ganze Beträge.} one {Bis zu # Nachkommastelle.} other {Bis zu # Nachkommastellen.}}',
  'link.email': 'E-Mail',
  'link.emailOptional': 'E-Mail (optional)',
  'link.emailHint': 'Der Händler sendet Ihre Quittung an diese Adresse.',
  'link.pay': 'Bezahlen',
  'link.footer': 'Zahlungslink von {merchant}, abgewickelt von hostpay.',
  'link.amountMissing': 'Geben Sie den zu zahlenden Betrag in {currency} ein.',
  'link.amountNotNumber': 'Geben Sie den Betrag als Zahl größer als 0 ein, zum Beispiel 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Geben Sie einen ganzen Betrag ohne Nachkommastellen ein.} one {Geben Sie einen Betrag mit höchstens # Nachkommastelle ein.} other {Geben Sie einen Betrag mit höchstens # Nachkommastellen ein.}}',
  'link.amountTooSmall': 'Der Betrag muss mindestens {min} betragen.',
  'link.amountTooLarge': 'Der Betrag darf höchstens {max} betragen.',
  'link.emailRequired': 'Geben Sie Ihre E-Mail-Adresse ein: Der Händler benötigt sie für diese Zahlung.',
  'link.emailInvalid': 'Geben Sie genau eine E-Mail-Adresse ein, zum Beispiel name@example.com.',
  'link.formTooOld':
    'Dieses Formular ist älter als {minutes, plural, one {# Minute} other {# Minuten}}. Prüfen Sie die Angaben und klicken Sie erneut auf Bezahlen.',
  'link.inactiveTitle': 'Dieser Zahlungslink ist deaktiviert',
  'link.inactiveMessage': 'Der Händler hat ihn abgeschaltet. Bitten Sie ihn um einen neuen Link.',
  'link.expiredTitle': 'Dieser Zahlungslink ist abgelaufen',
  'link.expiredMessage':
    'Seit dem {when} nimmt er keine Zahlungen mehr an. Bitten Sie den Händler um einen neuen Link.',
  'link.usedUpTitle': 'Dieser Zahlungslink ist ausgeschöpft',
  'link.usedUpMessage':
    'Er war für {count, plural, one {# Zahlung} other {# Zahlungen}} gedacht und nimmt keine weiteren an. Bitten Sie den Händler um einen neuen Link.',
  'link.notFoundTitle': 'Zahlungslink nicht gefunden',
  'link.notFoundMessage':
    'Dieser Zahlungslink ist ungültig oder wurde falsch eingegeben. Prüfen Sie den Link, den Sie erhalten haben.',
  'link.notStartedTitle': 'Zahlung nicht gestartet',
  'link.crossSite':
    'Dieses Formular kann nur von seiner eigenen Seite gesendet werden. Öffnen Sie den Zahlungslink erneut und versuchen Sie es dort.',
  'link.merchantCannotTake':
    'Der Händler kann gerade keine Zahlungen annehmen. Versuchen Sie es später erneut oder wenden Sie sich an den Händler.',
  'link.tooManyTitle': 'Zu viele Anfragen',
  'link.tooManyMessage':
    'Warten Sie {seconds, plural, one {# Sekunde} other {# Sekunden}} und versuchen Sie es dann erneut.',
} satisfies Messages<typeof en>;
