import type en from '../en/link.js';
import type { Messages } from '../types.js';

export default {
  'link.paymentTo': 'Pagamento a {merchant}',
  'link.items': 'Articoli',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Totale',
  'link.amountLabel': 'Importo ({currency})',
  'link.amountAtLeast': 'Almeno {min}.',
  'link.amountAtMost': 'Al massimo {max}.',
  'link.amountBetween': 'Da {min} a {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Solo importi interi.} one {Fino a # cifra decimale.} other {Fino a # cifre decimali.}}',
  'link.email': 'Indirizzo email',
  'link.emailOptional': 'Indirizzo email (facoltativo)',
  'link.emailHint': 'L’esercente ti invierà lì la ricevuta.',
  'link.pay': 'Paga',
  'link.footer': 'Link di pagamento di {merchant}, elaborato da hostpay.',
  'link.amountMissing': 'Inserisci l’importo da pagare in {currency}.',
  'link.amountNotNumber': 'Inserisci l’importo come numero maggiore di 0, ad esempio 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Inserisci un importo intero, senza decimali.} one {Inserisci un importo con al massimo # cifra decimale.} other {Inserisci un importo con al massimo # cifre decimali.}}',
  'link.amountTooSmall': 'L’importo deve essere almeno {min}.',
  'link.amountTooLarge': 'L’importo non può superare {max}.',
  'link.emailRequired': 'Inserisci il tuo indirizzo email: l’esercente ne ha bisogno per questo pagamento.',
  'link.emailInvalid': 'Inserisci un solo indirizzo email, ad esempio nome@example.com.',
  'link.formTooOld':
    'Questo modulo ha più di {minutes, plural, one {# minuto} other {# minuti}}. Controlla i dati e premi di nuovo Paga.',
  'link.inactiveTitle': 'Questo link di pagamento è disattivato',
  'link.inactiveMessage': 'L’esercente lo ha disattivato. Chiedigli un nuovo link.',
  'link.expiredTitle': 'Questo link di pagamento è scaduto',
  'link.expiredMessage': 'Non accetta più pagamenti dal {when}. Chiedi un nuovo link all’esercente.',
  'link.usedUpTitle': 'Questo link di pagamento è esaurito',
  'link.usedUpMessage':
    'Era previsto per {count, plural, one {# pagamento} other {# pagamenti}} e non ne accetta altri. Chiedi un nuovo link all’esercente.',
  'link.notFoundTitle': 'Link di pagamento non trovato',
  'link.notFoundMessage':
    'Questo link di pagamento non è valido o è stato digitato male. Controlla il link che hai ricevuto.',
  'link.notStartedTitle': 'Pagamento non avviato',
  'link.crossSite':
    'Questo modulo può essere inviato solo dalla sua pagina. Apri di nuovo il link di pagamento e riprova da lì.',
  'link.merchantCannotTake':
    'L’esercente non può accettare pagamenti in questo momento. Riprova più tardi o contatta l’esercente.',
  'link.tooManyTitle': 'Troppe richieste',
  'link.tooManyMessage': 'Attendi {seconds, plural, one {# secondo} other {# secondi}}, poi riprova.',
} satisfies Messages<typeof en>;
