import type en from '../en/refund.js';
import type { Messages } from '../types.js';

export default {
  'refund.from': 'Rimborso da',
  'refund.paidBackIn': 'Rimborsato in {asset} sulla rete {network}.',
  'refund.formTitle': 'Ricevi il tuo rimborso',
  'refund.checkAddressTitle': 'Controlla l’indirizzo',
  'refund.whereHeading': 'Dove inviamo il rimborso?',
  'refund.whereMessage':
    'Inserisci un tuo indirizzo {asset} sulla rete {network}. Questo link funziona una sola volta, fino al {when}.',
  'refund.addressLabel': 'Il tuo indirizzo {asset} sulla rete {network}',
  'refund.addressHintHex':
    'Inizia con {starts} seguito da {count, plural, one {# carattere} other {# caratteri}} tra lettere a–f e cifre.',
  'refund.addressHintLength': 'Inizia con {starts} ed è lungo {count, plural, one {# carattere} other {# caratteri}}.',
  'refund.addressHintStarts': 'Inizia con {starts}.',
  'refund.otherNetwork': 'Il denaro inviato a un indirizzo di un’altra rete va perso.',
  'refund.submit': 'Invia qui il mio rimborso',
  'refund.addressMissing': 'Inserisci l’indirizzo a cui inviare il rimborso.',
  'refund.addressBurn':
    'Il rimborso non può essere inviato a questo indirizzo: nessuno ne possiede la chiave, quindi il denaro inviato lì non potrà mai essere speso. Indica un indirizzo che controlli tu.',
  'refund.addressInvalid':
    'Il rimborso non può essere inviato a questo indirizzo: verifica che sia il tuo indirizzo {asset} sulla rete {network}, completo e senza errori di battitura.',
  'refund.requestedTitle': 'Rimborso richiesto',
  'refund.requestedMessage':
    '{amount} verranno inviati a {address}. {merchant} è stato avvisato; il rimborso parte non appena viene approvato. Puoi chiudere questa pagina.',
  'refund.usedTitle': 'Link di rimborso già usato',
  'refund.usedHeading': 'Questo link di rimborso è già stato usato',
  'refund.usedMessage':
    'Un indirizzo è stato indicato il {when}; un link funziona una sola volta. Se non sei stato tu, contatta {merchant}.',
  'refund.expiredTitle': 'Link di rimborso scaduto',
  'refund.expiredHeading': 'Questo link di rimborso è scaduto',
  'refund.expiredMessage': 'Era valido fino al {when}. Chiedine uno nuovo a {merchant}.',
  'refund.nothingLeftTitle': 'Niente da rimborsare',
  'refund.nothingLeftMessage': 'Questo pagamento è già stato rimborsato. Contatta {merchant} se ti aspettavi di più.',
  'refund.notFoundTitle': 'Link di rimborso non trovato',
  'refund.notFoundMessage':
    'Questo link di rimborso non è valido o è stato digitato male. Controlla il link che hai ricevuto o chiedine uno nuovo all’esercente.',
  'refund.notRequestedTitle': 'Rimborso non richiesto',
  'refund.crossSite':
    'Questo modulo può essere inviato solo dalla sua pagina. Apri il link di rimborso che hai ricevuto e riprova.',
  'refund.merchantCannotPay':
    'L’esercente non può pagare questo rimborso in questo momento. Il tuo link resta valido: riprova più tardi o contatta l’esercente.',
  'refund.tooManyTitle': 'Troppe richieste',
  'refund.tooManyMessage': 'Attendi {seconds, plural, one {# secondo} other {# secondi}}, poi ricarica questa pagina.',
  'refund.footer': 'Rimborso del pagamento {checkoutId}, elaborato da hostpay.',
} satisfies Messages<typeof en>;
