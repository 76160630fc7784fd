import type en from '../en/mail.js';
import type { Messages } from '../types.js';

export default {
  'mail.sandboxTag': '[Test]',
  'mail.sandboxNote': 'Testumgebung: Diese E-Mail ist ein Test, es wurde kein echtes Geld bewegt.',
  'mail.footerPayer': '{why} Gesendet von {sender} über hostpay. Ohne Tracking.',
  'mail.footerPayerReply':
    '{why} Gesendet von {sender} über hostpay; antworten Sie auf diese E-Mail, um {sender} zu erreichen. Ohne Tracking.',
  'mail.downloadPdf': 'PDF herunterladen',
  'mail.line': '{quantity} × {description}',
  'mail.total': 'Gesamtbetrag',

  'mail.invoiceSubject': 'Rechnung {number} von {sender}',
  'mail.invoiceSubjectDue': 'Rechnung {number} von {sender}: {amount} fällig',
  'mail.invoiceSubjectDueBy': 'Rechnung {number} von {sender}: {amount} fällig bis zum {date}',
  'mail.invoicePreheader': '{amount} fällig bis zum {date}',
  'mail.invoiceHello': 'Guten Tag {name}, {sender} hat Ihnen die Rechnung {number} gesendet.',
  'mail.invoiceHelloNoName': 'Guten Tag, {sender} hat Ihnen die Rechnung {number} gesendet.',
  'mail.invoiceNumber': 'Rechnung',
  'mail.invoicePaid': 'Bezahlt',
  'mail.invoiceAmountDue': 'Offener Betrag',
  'mail.invoiceDue': 'Fällig am',
  'mail.invoicePay': 'Rechnung ansehen und bezahlen',
  'mail.invoiceView': 'Rechnung ansehen',
  'mail.invoiceHow': 'Sie bezahlen auf der Rechnungsseite, in einer Kryptowährung Ihrer Wahl.',
  'mail.invoiceWhy': 'Sie erhalten diese E-Mail, weil {sender} Ihnen eine Rechnung gesendet hat.',

  'mail.receiptSubject': 'Quittung {number} von {sender}: {amount}',
  'mail.receiptThanks': 'Vielen Dank für Ihre Zahlung an {sender}. Hier ist Ihre Quittung {number}.',
  'mail.receiptNumber': 'Quittung',
  'mail.receiptDate': 'Datum (UTC)',
  'mail.receiptFor': 'Zahlung für',
  'mail.receiptForInvoice': 'Rechnung {number}',
  'mail.receiptForInvoicePart': 'Rechnung {number} (Teilzahlung auf den Gesamtbetrag von {amount})',
  'mail.receiptThisPayment': 'Diese Zahlung',
  'mail.receiptSubtotal': 'Zwischensumme',
  'mail.receiptTax': 'Steuer',
  'mail.receiptInvoiceTotal': 'Rechnungsbetrag',
  'mail.receiptPayment': 'Zahlung',
  'mail.receiptPaidWith': 'Bezahlt mit',
  'mail.receiptPaidWithValue': '{amount} im Netzwerk {network}',
  'mail.receiptRate': 'Kurs',
  'mail.receiptRateValue': '1 {currency} = {rate} {asset}',
  'mail.receiptTransaction': 'Transaktion',
  'mail.receiptTransactionValue': '{amount} ({chain}): {hash}',
  'mail.receiptExplorer': 'Block-Explorer',
  'mail.receiptRefunded': 'Erstattet',
  'mail.receiptTaxId': 'Steuernummer {taxId}',
  'mail.receiptView': 'Quittung ansehen',
  'mail.receiptWhy':
    'Sie erhalten diese E-Mail, weil Sie an {sender} gezahlt und diese Adresse für die Quittung angegeben haben.',

  'mail.refundUpTo': 'bis zu {amount}',
  'mail.refundSubject': '{sender} erstattet Ihre Zahlung: {amount}',
  'mail.refundBody':
    '{sender} sendet Ihnen eine Erstattung von {amount} im Netzwerk {network}. Öffnen Sie den Link und geben Sie eine eigene Adresse in diesem Netzwerk an, um sie zu erhalten.',
  'mail.refundAmount': 'Erstattung',
  'mail.refundNetwork': 'Netzwerk',
  'mail.refundPayment': 'Zahlung',
  'mail.refundValidUntil': 'Link gültig bis (UTC)',
  'mail.refundGiveAddress': 'Adresse angeben',
  'mail.refundNote':
    'Der Link funktioniert nur einmal und bis zum {date} (UTC). Geben Sie nur eine Adresse im Netzwerk {network} an, über die Sie selbst verfügen: Eine an eine falsche Adresse gesendete Erstattung lässt sich nicht zurückholen.',
  'mail.refundWhy':
    'Sie erhalten diese E-Mail, weil {sender} Ihnen eine Zahlung erstattet und hostpay gebeten hat, Ihnen den Link zu senden.',

  'mail.footerUser': '{why} Gesendet von hostpay für {sender}.',
  'mail.openDashboard': 'Dashboard öffnen',
  'mail.inviteSubject': 'Einladung zu {sender} auf hostpay',
  'mail.inviteBody': 'Sie wurden als {role} in das Dashboard von {sender} eingeladen.',
  'mail.inviteMember': 'Mitglied',
  'mail.inviteFollow': 'Öffnen Sie den Link, um ein Passwort zu wählen und die Zwei-Faktor-Anmeldung einzurichten.',
  'mail.inviteAccept': 'Einladung annehmen',
  'mail.inviteNote':
    'Der Link funktioniert nur einmal und bis zum {date} (UTC). Wenn Sie keine Einladung erwartet haben, ignorieren Sie diese E-Mail.',
  'mail.inviteWhy': 'Sie erhalten diese E-Mail, weil jemand {email} zu einem hostpay-Dashboard eingeladen hat.',
  'mail.inviteWhyYou': 'Sie erhalten diese E-Mail, weil jemand Sie zu einem hostpay-Dashboard eingeladen hat.',
  'mail.resetSubject': 'Passwort für das Dashboard von {sender} zurücksetzen',
  'mail.resetFollow': 'Öffnen Sie den Link, um ein neues Passwort für Ihr Dashboard-Konto zu wählen.',
  'mail.resetChoose': 'Neues Passwort wählen',
  'mail.resetNote':
    'Der Link funktioniert nur einmal und bis zum {date} (UTC). Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
  'mail.resetWhy':
    'Sie erhalten diese E-Mail, weil für Ihr Dashboard-Konto das Zurücksetzen des Passworts angefordert wurde.',
  'mail.securitySubject': 'Sicherheitshinweis: {notice}',
  'mail.securityPasswordChanged': 'Das Passwort Ihres Dashboard-Kontos wurde geändert.',
  'mail.securityPasswordReset':
    'Das Passwort Ihres Dashboard-Kontos wurde über einen Link zum Zurücksetzen neu festgelegt.',
  'mail.securityTotpEnrolled':
    'Für Ihr Dashboard-Konto wurde die Zwei-Faktor-Anmeldung (eine Authenticator-App) eingerichtet.',
  'mail.securityKeyCreated': 'Ein API-Schlüssel wurde erstellt.',
  'mail.securityKeyRolled': 'Ein API-Schlüssel wurde erneuert (ein neues Geheimnis ersetzt das alte).',
  'mail.securityKeyRevoked': 'Ein API-Schlüssel wurde widerrufen.',
  'mail.securityUnknown': 'Sicherheitsereignis: {action}.',
  'mail.securityWhen': 'Zeitpunkt (UTC)',
  'mail.securityBy': 'Durch',
  'mail.securityFrom': 'IP-Adresse',
  'mail.securityKey': 'Schlüssel',
  'mail.securityCheck':
    'Wenn das nicht Sie oder Ihr Team waren, melden Sie sich an und prüfen Sie das Sicherheitsprotokoll, oder bitten Sie Ihren Betreiber um Hilfe.',
  'mail.securityWhy': 'Sicherheitshinweise für {sender} werden immer gesendet und können nicht abgeschaltet werden.',
  'mail.notifySubject': '{sender}: {title}',
  'mail.notifyCheckoutSettled': 'Ein Checkout wurde bezahlt und abgeschlossen.',
  'mail.notifyCheckoutSettledTitle': 'Ein Checkout wurde bezahlt und abgeschlossen',
  'mail.notifyCheckoutNeedsReview':
    'Ein Checkout muss von Ihnen geprüft werden (zu spät, zu viel oder doppelt bezahlt).',
  'mail.notifyCheckoutNeedsReviewTitle':
    'Ein Checkout muss von Ihnen geprüft werden (zu spät, zu viel oder doppelt bezahlt)',
  'mail.notifyPayoutCompleted': 'Eine Auszahlung wurde ausgeführt.',
  'mail.notifyPayoutCompletedTitle': 'Eine Auszahlung wurde ausgeführt',
  'mail.notifyPayoutFailed': 'Eine Auszahlung ist fehlgeschlagen.',
  'mail.notifyPayoutFailedTitle': 'Eine Auszahlung ist fehlgeschlagen',
  'mail.notifyRefundCompleted': 'Eine Erstattung wurde ausgeführt.',
  'mail.notifyRefundCompletedTitle': 'Eine Erstattung wurde ausgeführt',
  'mail.notifyWebhookEndpointDisabled':
    'Ein Webhook-Endpunkt wurde deaktiviert: Ereignisse werden nicht mehr an ihn gesendet.',
  'mail.notifyWebhookEndpointDisabledTitle': 'Ein Webhook-Endpunkt wurde deaktiviert',
  'mail.notifyUnknown': 'Ereignis {type}.',
  'mail.notifyUnknownTitle': 'Ereignis {type}',
  'mail.notifyWhy':
    'Sie erhalten diese E-Mail, weil Benachrichtigungen dieser Art in Ihrem Dashboard von {sender} eingeschaltet sind (Benachrichtigungen).',
} satisfies Messages<typeof en>;
